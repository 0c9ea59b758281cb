// The only C in Imago: thin wrappers that own every setjmp/longjmp of libjpeg and libpng,
// so that a longjmp never crosses a Swift frame, and that keep the libraries quiet on stderr.
// Every function returns 0 on success and -1 on failure; the failure's kind and the library's
// message are then read from the handle. No libjpeg or libpng type appears in this header.
#ifndef CIMAGO_SHIMS_H
#define CIMAGO_SHIMS_H

#include <stddef.h>
#include <stdint.h>

/// Why a call failed.
typedef enum {
  CImagoShims_ErrorNone = 0,
  /// The library rejected the data; the message says why.
  CImagoShims_ErrorCorrupt = 1,
  /// The data ended before the image did.
  CImagoShims_ErrorTruncated = 2,
  /// A progressive JPEG has more scans than allowed (a known denial of service).
  CImagoShims_ErrorTooManyScans = 3,
  /// The library could not get memory, or a memory limit was reached.
  CImagoShims_ErrorOutOfMemory = 4,
  /// A chunk or other structure exceeded a configured limit.
  CImagoShims_ErrorLimit = 5,
} CImagoShims_ErrorKind;

// MARK: - JPEG decoding

typedef struct CImagoShims_JPEGDecoder CImagoShims_JPEGDecoder;

typedef enum {
  CImagoShims_JPEGColorUnknown = 0,
  CImagoShims_JPEGColorGray = 1,
  CImagoShims_JPEGColorRGB = 2,
  CImagoShims_JPEGColorYCbCr = 3,
  CImagoShims_JPEGColorCMYK = 4,
  CImagoShims_JPEGColorYCCK = 5,
} CImagoShims_JPEGColorSpace;

typedef struct {
  uint32_t width;
  uint32_t height;
  int32_t components;
  CImagoShims_JPEGColorSpace colorSpace;
  int32_t progressive;
  /// Nonzero when an Adobe APP14 marker was seen (CMYK is then stored inverted).
  int32_t adobeMarker;
  /// The first APP1 marker that starts with "Exif\0\0", past that prefix; owned by the decoder.
  const uint8_t *exif;
  size_t exifLength;
} CImagoShims_JPEGHeader;

/// Creates a decoder over `data`, which must stay valid until the decoder is destroyed.
CImagoShims_JPEGDecoder *CImagoShims_jpeg_decoder_create(
  const uint8_t *data, size_t length, int32_t maxScans, size_t maxMemory);
void CImagoShims_jpeg_decoder_destroy(CImagoShims_JPEGDecoder *decoder);
CImagoShims_ErrorKind CImagoShims_jpeg_error_kind(const CImagoShims_JPEGDecoder *decoder);
const char *CImagoShims_jpeg_error_message(const CImagoShims_JPEGDecoder *decoder);
/// Nonzero when the data ended early and libjpeg filled the rest (a truncated file).
int32_t CImagoShims_jpeg_hit_end_of_data(const CImagoShims_JPEGDecoder *decoder);

int32_t CImagoShims_jpeg_read_header(CImagoShims_JPEGDecoder *decoder, CImagoShims_JPEGHeader *header);
/// Starts decompression at 1/`scaleDenominator` (1, 2, 4 or 8) into `outputColor`
/// (gray 1 channel, RGB 3, CMYK 4) and reports the output size.
int32_t CImagoShims_jpeg_start(
  CImagoShims_JPEGDecoder *decoder, uint32_t scaleDenominator, CImagoShims_JPEGColorSpace outputColor,
  uint32_t *outputWidth, uint32_t *outputHeight);
/// Reads up to `maxRows` rows into `destination` (rows `stride` bytes apart); reports how many.
int32_t CImagoShims_jpeg_read_rows(
  CImagoShims_JPEGDecoder *decoder, uint8_t *destination, size_t stride, uint32_t maxRows,
  uint32_t *rowsRead);
int32_t CImagoShims_jpeg_finish(CImagoShims_JPEGDecoder *decoder);

// MARK: - JPEG encoding

/// Encodes gray (1 component) or RGB (3) pixels. On success `*output` is malloc'ed: free it with
/// CImagoShims_free. On failure the message is copied into `message`.
int32_t CImagoShims_jpeg_encode(
  const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride, int32_t components,
  int32_t quality, int32_t progressive, int32_t fullChroma, int32_t optimizeCoding,
  uint8_t **output, size_t *outputLength, char *message, size_t messageCapacity);

// MARK: - PNG decoding

typedef struct CImagoShims_PNGDecoder CImagoShims_PNGDecoder;

typedef struct {
  uint32_t width;
  uint32_t height;
  int32_t bitDepth;
  int32_t colorType;
  int32_t interlaced;
  int32_t hasTransparencyChunk;
  /// After the transforms (palette expanded, tRNS to alpha, 16 bits scaled to 8).
  int32_t channels;
  size_t rowBytes;
  int32_t passes;
  /// The eXIf chunk if it came before the image data; owned by the decoder.
  const uint8_t *exif;
  size_t exifLength;
} CImagoShims_PNGHeader;

CImagoShims_PNGDecoder *CImagoShims_png_decoder_create(
  const uint8_t *data, size_t length, uint32_t maxWidth, uint32_t maxHeight,
  uint32_t maxChunkCount, size_t maxChunkBytes);
void CImagoShims_png_decoder_destroy(CImagoShims_PNGDecoder *decoder);
CImagoShims_ErrorKind CImagoShims_png_error_kind(const CImagoShims_PNGDecoder *decoder);
const char *CImagoShims_png_error_message(const CImagoShims_PNGDecoder *decoder);

/// Reads the chunks before the image data and sets the 8-bit expanding transforms.
int32_t CImagoShims_png_read_header(CImagoShims_PNGDecoder *decoder, CImagoShims_PNGHeader *header);
/// Reads the next `count` rows of a non-interlaced image (or of one interlace pass).
int32_t CImagoShims_png_read_rows(CImagoShims_PNGDecoder *decoder, uint8_t **rows, uint32_t count);
/// Reads a whole (possibly interlaced) image into `rows`, one pointer per row.
int32_t CImagoShims_png_read_image(CImagoShims_PNGDecoder *decoder, uint8_t **rows);

// MARK: - PNG encoding

/// `colorType` is PNG's: 0 gray, 2 RGB, 4 gray+alpha, 6 RGBA; 8 bits per channel.
int32_t CImagoShims_png_encode(
  const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride, int32_t colorType,
  int32_t compressionLevel, int32_t interlaced, uint8_t **output, size_t *outputLength, char *message,
  size_t messageCapacity);

// MARK: - Checksums

/// zlib's CRC-32 of `length` bytes, continuing from `crc` (start with 0).
uint32_t CImagoShims_crc32(uint32_t crc, const uint8_t *bytes, size_t length);

/// Frees memory returned by the encoders.
void CImagoShims_free(void *pointer);

#endif
