#!/usr/bin/env bash
# Regenerates every committed fixture in this folder. Nothing here is downloaded: the inputs
# are ImageMagick's built-in images (logo:) and flat colour blocks drawn by ImageMagick.
# Needs (Debian/Ubuntu): imagemagick libjpeg-turbo-progs webp libimage-exiftool-perl
#
#   bash Fixtures/make-fixtures.sh
set -euo pipefail
cd "$(dirname "$0")"
IM=$(command -v convert-im6.q16 || command -v magick)
# PNGs without time stamps, so that running this again gives the same bytes.
PNG_STABLE=(-define png:exclude-chunks=date,time +set date:create +set date:modify)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# wizard.jpg / wizard.png: ImageMagick's built-in logo (640x480), the example for the demo.
"$IM" logo: -quality 90 wizard.jpg
"$IM" logo: -resize 320x240 "${PNG_STABLE[@]}" png:wizard.png

# quadrants: 48x32 as displayed; red top-left, green top-right, blue bottom-left, yellow
# bottom-right. Every orientation fixture stores the pixels so that applying its EXIF
# orientation shows exactly this picture.
"$IM" -size 24x16 xc:'#ff0000' xc:'#00ff00' +append "$tmp/top.png"
"$IM" -size 24x16 xc:'#0000ff' xc:'#ffff00' +append "$tmp/bottom.png"
"$IM" "$tmp/top.png" "$tmp/bottom.png" -append "$tmp/quadrants.png"
transform=([1]="" [2]="-flop" [3]="-rotate 180" [4]="-flip" [5]="-transpose" [6]="-rotate 270" [7]="-transverse" [8]="-rotate 90")
for n in 1 2 3 4 5 6 7 8; do
  # shellcheck disable=SC2086
  "$IM" "$tmp/quadrants.png" ${transform[$n]} -sampling-factor 1x1 -quality 95 "orientation-$n.jpg"
  exiftool -q -overwrite_original -n -Orientation=$n "orientation-$n.jpg"
done
"$IM" "$tmp/quadrants.png" -rotate 270 "${PNG_STABLE[@]}" png:orientation-6.png
exiftool -q -q -overwrite_original -n -Orientation=6 orientation-6.png
"$IM" "$tmp/quadrants.png" -rotate 270 "$tmp/o6.png"
cwebp -quiet -lossless "$tmp/o6.png" -o orientation-6.webp
exiftool -q -overwrite_original -n -Orientation=6 orientation-6.webp

# cmyk.jpg: the quadrants as an Adobe CMYK JPEG (inverted CMYK, as Photoshop writes it).
"$IM" "$tmp/quadrants.png" -colorspace CMYK -sampling-factor 1x1 -quality 95 cmyk.jpg

# gray.jpg, progressive.jpg: the logo as a grayscale and as a progressive JPEG.
"$IM" logo: -resize 160x120 ppm:"$tmp/logo.ppm"
cjpeg -grayscale -quality 90 "$tmp/logo.ppm" > gray.jpg
cjpeg -progressive -quality 90 "$tmp/logo.ppm" > progressive.jpg

# alpha.png: RGBA with a horizontal alpha ramp; alpha.webp lossy with alpha; lossless.webp.
"$IM" logo: -resize 160x120 \( -size 160x120 gradient:white-black -rotate 90 -resize 160x120! \) \
  -alpha off -compose CopyOpacity -composite "${PNG_STABLE[@]}" png32:alpha.png
cwebp -quiet -q 80 alpha.png -o alpha.webp
cwebp -quiet -lossless "$tmp/logo.ppm" -o lossless.webp
cwebp -quiet -q 80 "$tmp/logo.ppm" -o lossy.webp

# animated.webp: three 40x30 frames (red, green, blue).
for c in red lime blue; do "$IM" -size 40x30 xc:$c "$tmp/$c.png"; done
img2webp -lossless -d 100 "$tmp/red.png" "$tmp/lime.png" "$tmp/blue.png" -o animated.webp

# reference-lanczos-*.png: ImageMagick's Lanczos (3 lobes, sRGB as stored) downscales of
# wizard.png, the reference the resampler's quality test compares with (PSNR >= 35 dB).
for size in 100x75 213x160 57x43; do
  "$IM" wizard.png -filter Lanczos -resize "$size"'!' "${PNG_STABLE[@]}" png24:"reference-lanczos-$size.png"
done

ls -l ./*.jpg ./*.png ./*.webp
