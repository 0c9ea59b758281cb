// Every setjmp of libjpeg and libpng lives in this file. A failure longjmps back into the C
// function that set the jump buffer, never across a Swift frame, and is reported as a return
// code plus a message kept in the handle. Library warnings are swallowed (counted, not printed).
#include "CImagoShims.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>
#include <png.h>
#include <zlib.h>

static void copy_message(char *destination, size_t capacity, const char *message) {
  if (capacity == 0) return;
  snprintf(destination, capacity, "%s", message ? message : "unknown error");
}

// MARK: - JPEG decoding

struct CImagoShims_JPEGDecoder {
  struct jpeg_decompress_struct cinfo;
  struct jpeg_error_mgr errorManager;
  struct jpeg_progress_mgr progress;
  jmp_buf jump;
  CImagoShims_ErrorKind kind;
  char message[JMSG_LENGTH_MAX + 32];
  int32_t hitEndOfData;
  int32_t maxScans;
  int32_t created;
};

static CImagoShims_JPEGDecoder *jpeg_decoder_of(j_common_ptr cinfo) {
  // cinfo is the first member, so the decoder starts at the same address.
  return (CImagoShims_JPEGDecoder *)cinfo;
}

static void jpeg_decoder_error_exit(j_common_ptr cinfo) {
  CImagoShims_JPEGDecoder *decoder = jpeg_decoder_of(cinfo);
  char buffer[JMSG_LENGTH_MAX];
  (*cinfo->err->format_message)(cinfo, buffer);
  copy_message(decoder->message, sizeof decoder->message, buffer);
  if (cinfo->err->msg_code == JERR_OUT_OF_MEMORY || cinfo->err->msg_code == JERR_BAD_ALLOC_CHUNK) {
    decoder->kind = CImagoShims_ErrorOutOfMemory;
  } else if (decoder->hitEndOfData || cinfo->err->msg_code == JERR_INPUT_EOF) {
    decoder->kind = CImagoShims_ErrorTruncated;
  } else {
    decoder->kind = CImagoShims_ErrorCorrupt;
  }
  longjmp(decoder->jump, 1);
}

static void jpeg_decoder_emit_message(j_common_ptr cinfo, int level) {
  if (level < 0) {
    cinfo->err->num_warnings++;
    if (cinfo->err->msg_code == JWRN_JPEG_EOF) jpeg_decoder_of(cinfo)->hitEndOfData = 1;
  }
}

static void jpeg_quiet_output_message(j_common_ptr cinfo) { (void)cinfo; }

static void jpeg_decoder_progress(j_common_ptr cinfo) {
  CImagoShims_JPEGDecoder *decoder = jpeg_decoder_of(cinfo);
  j_decompress_ptr dinfo = &decoder->cinfo;
  if (dinfo->progressive_mode && decoder->maxScans > 0 && dinfo->input_scan_number > decoder->maxScans) {
    snprintf(decoder->message, sizeof decoder->message,
             "progressive JPEG has more than %d scans", (int)decoder->maxScans);
    decoder->kind = CImagoShims_ErrorTooManyScans;
    longjmp(decoder->jump, 1);
  }
}

CImagoShims_JPEGDecoder *CImagoShims_jpeg_decoder_create(
  const uint8_t *data, size_t length, int32_t maxScans, size_t maxMemory) {
  CImagoShims_JPEGDecoder *decoder = calloc(1, sizeof *decoder);
  if (!decoder) return NULL;
  decoder->maxScans = maxScans;
  decoder->cinfo.err = jpeg_std_error(&decoder->errorManager);
  decoder->errorManager.error_exit = jpeg_decoder_error_exit;
  decoder->errorManager.emit_message = jpeg_decoder_emit_message;
  decoder->errorManager.output_message = jpeg_quiet_output_message;
  if (setjmp(decoder->jump)) {
    if (decoder->created) jpeg_destroy_decompress(&decoder->cinfo);
    free(decoder);
    return NULL;
  }
  jpeg_create_decompress(&decoder->cinfo);
  decoder->created = 1;
  if (maxMemory > 0) decoder->cinfo.mem->max_memory_to_use = (long)maxMemory;
  decoder->progress.progress_monitor = jpeg_decoder_progress;
  decoder->cinfo.progress = &decoder->progress;
  jpeg_mem_src(&decoder->cinfo, data, (unsigned long)length);
  jpeg_save_markers(&decoder->cinfo, JPEG_APP0 + 1, 0xFFFF);
  return decoder;
}

void CImagoShims_jpeg_decoder_destroy(CImagoShims_JPEGDecoder *decoder) {
  if (!decoder) return;
  if (decoder->created) jpeg_destroy_decompress(&decoder->cinfo);
  free(decoder);
}

CImagoShims_ErrorKind CImagoShims_jpeg_error_kind(const CImagoShims_JPEGDecoder *decoder) {
  return decoder->kind;
}

const char *CImagoShims_jpeg_error_message(const CImagoShims_JPEGDecoder *decoder) {
  return decoder->message;
}

int32_t CImagoShims_jpeg_hit_end_of_data(const CImagoShims_JPEGDecoder *decoder) {
  return decoder->hitEndOfData;
}

static CImagoShims_JPEGColorSpace jpeg_color_space_of(J_COLOR_SPACE space) {
  switch (space) {
  case JCS_GRAYSCALE: return CImagoShims_JPEGColorGray;
  case JCS_RGB: return CImagoShims_JPEGColorRGB;
  case JCS_YCbCr: return CImagoShims_JPEGColorYCbCr;
  case JCS_CMYK: return CImagoShims_JPEGColorCMYK;
  case JCS_YCCK: return CImagoShims_JPEGColorYCCK;
  default: return CImagoShims_JPEGColorUnknown;
  }
}

int32_t CImagoShims_jpeg_read_header(CImagoShims_JPEGDecoder *decoder, CImagoShims_JPEGHeader *header) {
  if (setjmp(decoder->jump)) return -1;
  jpeg_read_header(&decoder->cinfo, TRUE);
  struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
  memset(header, 0, sizeof *header);
  header->width = cinfo->image_width;
  header->height = cinfo->image_height;
  header->components = cinfo->num_components;
  header->colorSpace = jpeg_color_space_of(cinfo->jpeg_color_space);
  header->progressive = cinfo->progressive_mode ? 1 : 0;
  header->adobeMarker = cinfo->saw_Adobe_marker ? 1 : 0;
  for (jpeg_saved_marker_ptr marker = cinfo->marker_list; marker; marker = marker->next) {
    if (marker->marker == JPEG_APP0 + 1 && marker->data_length > 6 &&
        memcmp(marker->data, "Exif\0\0", 6) == 0) {
      header->exif = marker->data + 6;
      header->exifLength = marker->data_length - 6;
      break;
    }
  }
  return 0;
}

int32_t CImagoShims_jpeg_start(
  CImagoShims_JPEGDecoder *decoder, uint32_t scaleDenominator, CImagoShims_JPEGColorSpace outputColor,
  uint32_t *outputWidth, uint32_t *outputHeight) {
  if (setjmp(decoder->jump)) return -1;
  struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
  cinfo->scale_num = 1;
  cinfo->scale_denom = scaleDenominator;
  switch (outputColor) {
  case CImagoShims_JPEGColorGray: cinfo->out_color_space = JCS_GRAYSCALE; break;
  case CImagoShims_JPEGColorCMYK: cinfo->out_color_space = JCS_CMYK; break;
  default: cinfo->out_color_space = JCS_RGB; break;
  }
  jpeg_start_decompress(cinfo);
  *outputWidth = cinfo->output_width;
  *outputHeight = cinfo->output_height;
  return 0;
}

int32_t CImagoShims_jpeg_read_rows(
  CImagoShims_JPEGDecoder *decoder, uint8_t *destination, size_t stride, uint32_t maxRows,
  uint32_t *rowsRead) {
  *rowsRead = 0;
  if (setjmp(decoder->jump)) return -1;
  struct jpeg_decompress_struct *cinfo = &decoder->cinfo;
  JSAMPROW rows[16];
  while (*rowsRead < maxRows && cinfo->output_scanline < cinfo->output_height) {
    uint32_t batch = maxRows - *rowsRead;
    if (batch > 16) batch = 16;
    for (uint32_t i = 0; i < batch; i++) rows[i] = destination + (size_t)(*rowsRead + i) * stride;
    JDIMENSION got = jpeg_read_scanlines(cinfo, rows, batch);
    if (got == 0) break;
    *rowsRead += got;
  }
  return 0;
}

int32_t CImagoShims_jpeg_finish(CImagoShims_JPEGDecoder *decoder) {
  if (setjmp(decoder->jump)) return -1;
  jpeg_finish_decompress(&decoder->cinfo);
  return 0;
}

// MARK: - JPEG encoding

typedef struct {
  struct jpeg_destination_mgr pub;
  uint8_t *buffer;
  size_t capacity;
} growing_destination;

typedef struct {
  struct jpeg_compress_struct cinfo;
  struct jpeg_error_mgr errorManager;
  growing_destination destination;
  jmp_buf jump;
  char message[JMSG_LENGTH_MAX];
} jpeg_encoder;

static void jpeg_encoder_error_exit(j_common_ptr cinfo) {
  jpeg_encoder *encoder = (jpeg_encoder *)cinfo;
  (*cinfo->err->format_message)(cinfo, encoder->message);
  longjmp(encoder->jump, 1);
}

static void growing_init(j_compress_ptr cinfo) {
  growing_destination *destination = (growing_destination *)cinfo->dest;
  destination->capacity = 64 * 1024;
  destination->buffer = malloc(destination->capacity);
  if (!destination->buffer) ERREXIT(cinfo, JERR_OUT_OF_MEMORY);
  destination->pub.next_output_byte = destination->buffer;
  destination->pub.free_in_buffer = destination->capacity;
}

static boolean growing_empty(j_compress_ptr cinfo) {
  growing_destination *destination = (growing_destination *)cinfo->dest;
  size_t used = destination->capacity;
  uint8_t *grown = realloc(destination->buffer, used * 2);
  if (!grown) ERREXIT(cinfo, JERR_OUT_OF_MEMORY);
  destination->buffer = grown;
  destination->capacity = used * 2;
  destination->pub.next_output_byte = grown + used;
  destination->pub.free_in_buffer = destination->capacity - used;
  return TRUE;
}

static void growing_term(j_compress_ptr cinfo) { (void)cinfo; }

int32_t CImagoShims_jpeg_encode(
  const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride, int32_t components,
  int32_t quality, int32_t progressive, int32_t fullChroma, int32_t optimizeCoding,
  uint8_t **output, size_t *outputLength, char *message, size_t messageCapacity) {
  jpeg_encoder *encoder = calloc(1, sizeof *encoder);
  if (!encoder) {
    copy_message(message, messageCapacity, "out of memory");
    return -1;
  }
  encoder->cinfo.err = jpeg_std_error(&encoder->errorManager);
  encoder->errorManager.error_exit = jpeg_encoder_error_exit;
  encoder->errorManager.output_message = jpeg_quiet_output_message;
  if (setjmp(encoder->jump)) {
    copy_message(message, messageCapacity, encoder->message);
    jpeg_destroy_compress(&encoder->cinfo);
    free(encoder->destination.buffer);
    free(encoder);
    return -1;
  }
  struct jpeg_compress_struct *cinfo = &encoder->cinfo;
  jpeg_create_compress(cinfo);
  encoder->destination.pub.init_destination = growing_init;
  encoder->destination.pub.empty_output_buffer = growing_empty;
  encoder->destination.pub.term_destination = growing_term;
  cinfo->dest = &encoder->destination.pub;
  cinfo->image_width = width;
  cinfo->image_height = height;
  cinfo->input_components = components;
  cinfo->in_color_space = components == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_set_defaults(cinfo);
  jpeg_set_quality(cinfo, quality, TRUE);
  if (progressive) jpeg_simple_progression(cinfo);
  cinfo->optimize_coding = optimizeCoding ? TRUE : FALSE;
  if (components == 3 && fullChroma) {
    cinfo->comp_info[0].h_samp_factor = 1;
    cinfo->comp_info[0].v_samp_factor = 1;
  }
  jpeg_start_compress(cinfo, TRUE);
  while (cinfo->next_scanline < cinfo->image_height) {
    JSAMPROW row = (JSAMPROW)(pixels + (size_t)cinfo->next_scanline * stride);
    jpeg_write_scanlines(cinfo, &row, 1);
  }
  jpeg_finish_compress(cinfo);
  *output = encoder->destination.buffer;
  *outputLength = encoder->destination.capacity - encoder->destination.pub.free_in_buffer;
  jpeg_destroy_compress(cinfo);
  free(encoder);
  return 0;
}

// MARK: - PNG decoding

struct CImagoShims_PNGDecoder {
  png_structp png;
  png_infop info;
  const uint8_t *data;
  size_t length;
  size_t offset;
  jmp_buf jump;
  CImagoShims_ErrorKind kind;
  char message[256];
};

static CImagoShims_ErrorKind png_kind_of(const char *message) {
  if (strstr(message, "exceeds user limit") || strstr(message, "too large") ||
      strstr(message, "chunk cache") || strstr(message, "exceeds limit"))
    return CImagoShims_ErrorLimit;
  if (strstr(message, "memory")) return CImagoShims_ErrorOutOfMemory;
  return CImagoShims_ErrorCorrupt;
}

static void png_decoder_error(png_structp png, png_const_charp message) {
  CImagoShims_PNGDecoder *decoder = png_get_error_ptr(png);
  copy_message(decoder->message, sizeof decoder->message, message);
  if (decoder->kind == CImagoShims_ErrorNone) decoder->kind = png_kind_of(decoder->message);
  longjmp(decoder->jump, 1);
}

static void png_quiet_warning(png_structp png, png_const_charp message) {
  (void)png;
  (void)message;
}

static void png_decoder_read(png_structp png, png_bytep destination, png_size_t count) {
  CImagoShims_PNGDecoder *decoder = png_get_io_ptr(png);
  if (count > decoder->length - decoder->offset) {
    decoder->kind = CImagoShims_ErrorTruncated;
    png_error(png, "unexpected end of PNG data");
  }
  memcpy(destination, decoder->data + decoder->offset, count);
  decoder->offset += count;
}

CImagoShims_PNGDecoder *CImagoShims_png_decoder_create(
  const uint8_t *data, size_t length, uint32_t maxWidth, uint32_t maxHeight,
  uint32_t maxChunkCount, size_t maxChunkBytes) {
  CImagoShims_PNGDecoder *decoder = calloc(1, sizeof *decoder);
  if (!decoder) return NULL;
  decoder->data = data;
  decoder->length = length;
  decoder->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, decoder, png_decoder_error, png_quiet_warning);
  if (!decoder->png) {
    free(decoder);
    return NULL;
  }
  decoder->info = png_create_info_struct(decoder->png);
  if (!decoder->info) {
    png_destroy_read_struct(&decoder->png, NULL, NULL);
    free(decoder);
    return NULL;
  }
  if (setjmp(decoder->jump)) {
    png_destroy_read_struct(&decoder->png, &decoder->info, NULL);
    free(decoder);
    return NULL;
  }
  png_set_read_fn(decoder->png, decoder, png_decoder_read);
  png_set_user_limits(decoder->png, maxWidth, maxHeight);
  png_set_chunk_cache_max(decoder->png, maxChunkCount);
  png_set_chunk_malloc_max(decoder->png, maxChunkBytes);
  return decoder;
}

void CImagoShims_png_decoder_destroy(CImagoShims_PNGDecoder *decoder) {
  if (!decoder) return;
  png_destroy_read_struct(&decoder->png, &decoder->info, NULL);
  free(decoder);
}

CImagoShims_ErrorKind CImagoShims_png_error_kind(const CImagoShims_PNGDecoder *decoder) {
  return decoder->kind;
}

const char *CImagoShims_png_error_message(const CImagoShims_PNGDecoder *decoder) {
  return decoder->message;
}

int32_t CImagoShims_png_read_header(CImagoShims_PNGDecoder *decoder, CImagoShims_PNGHeader *header) {
  if (setjmp(decoder->jump)) return -1;
  png_structp png = decoder->png;
  png_infop info = decoder->info;
  png_read_info(png, info);
  memset(header, 0, sizeof *header);
  header->width = png_get_image_width(png, info);
  header->height = png_get_image_height(png, info);
  header->bitDepth = png_get_bit_depth(png, info);
  header->colorType = png_get_color_type(png, info);
  header->interlaced = png_get_interlace_type(png, info) != PNG_INTERLACE_NONE;
  header->hasTransparencyChunk = png_get_valid(png, info, PNG_INFO_tRNS) ? 1 : 0;
  if (header->colorType == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (header->colorType == PNG_COLOR_TYPE_GRAY && header->bitDepth < 8) png_set_expand_gray_1_2_4_to_8(png);
  if (header->hasTransparencyChunk) png_set_tRNS_to_alpha(png);
  if (header->bitDepth == 16) png_set_scale_16(png);
  header->passes = png_set_interlace_handling(png);
  png_read_update_info(png, info);
  header->channels = png_get_channels(png, info);
  header->rowBytes = png_get_rowbytes(png, info);
  png_uint_32 exifLength = 0;
  png_bytep exif = NULL;
  if (png_get_eXIf_1(png, info, &exifLength, &exif) && exif) {
    header->exif = exif;
    header->exifLength = exifLength;
  }
  return 0;
}

int32_t CImagoShims_png_read_rows(CImagoShims_PNGDecoder *decoder, uint8_t **rows, uint32_t count) {
  if (setjmp(decoder->jump)) return -1;
  png_read_rows(decoder->png, rows, NULL, count);
  return 0;
}

int32_t CImagoShims_png_read_image(CImagoShims_PNGDecoder *decoder, uint8_t **rows) {
  if (setjmp(decoder->jump)) return -1;
  png_read_image(decoder->png, rows);
  return 0;
}

// MARK: - PNG encoding

typedef struct {
  uint8_t *buffer;
  size_t length;
  size_t capacity;
  jmp_buf jump;
  char message[256];
} png_encoder;

static void png_encoder_error(png_structp png, png_const_charp message) {
  png_encoder *encoder = png_get_error_ptr(png);
  copy_message(encoder->message, sizeof encoder->message, message);
  longjmp(encoder->jump, 1);
}

static void png_encoder_write(png_structp png, png_bytep data, png_size_t count) {
  png_encoder *encoder = png_get_io_ptr(png);
  if (count > encoder->capacity - encoder->length) {
    size_t capacity = encoder->capacity ? encoder->capacity : 64 * 1024;
    while (count > capacity - encoder->length) capacity *= 2;
    uint8_t *grown = realloc(encoder->buffer, capacity);
    if (!grown) png_error(png, "out of memory");
    encoder->buffer = grown;
    encoder->capacity = capacity;
  }
  memcpy(encoder->buffer + encoder->length, data, count);
  encoder->length += count;
}

static void png_encoder_flush(png_structp png) { (void)png; }

int32_t CImagoShims_png_encode(
  const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride, int32_t colorType,
  int32_t compressionLevel, int32_t interlaced, uint8_t **output, size_t *outputLength, char *message,
  size_t messageCapacity) {
  png_encoder *encoder = calloc(1, sizeof *encoder);
  if (!encoder) {
    copy_message(message, messageCapacity, "out of memory");
    return -1;
  }
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, encoder, png_encoder_error, png_quiet_warning);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  if (!png || !info) {
    if (png) png_destroy_write_struct(&png, NULL);
    free(encoder);
    copy_message(message, messageCapacity, "out of memory");
    return -1;
  }
  if (setjmp(encoder->jump)) {
    copy_message(message, messageCapacity, encoder->message);
    png_destroy_write_struct(&png, &info);
    free(encoder->buffer);
    free(encoder);
    return -1;
  }
  png_set_write_fn(png, encoder, png_encoder_write, png_encoder_flush);
  png_set_IHDR(png, info, width, height, 8, colorType,
               interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(png, compressionLevel);
  png_write_info(png, info);
  int passes = png_set_interlace_handling(png);
  for (int pass = 0; pass < passes; pass++) {
    for (uint32_t y = 0; y < height; y++) {
      png_write_row(png, (png_const_bytep)(pixels + (size_t)y * stride));
    }
  }
  png_write_end(png, info);
  png_destroy_write_struct(&png, &info);
  *output = encoder->buffer;
  *outputLength = encoder->length;
  free(encoder);
  return 0;
}

uint32_t CImagoShims_crc32(uint32_t crc, const uint8_t *bytes, size_t length) {
  // zlib takes at most UINT_MAX bytes per call.
  while (length > 0) {
    uInt chunk = length > 0x40000000u ? 0x40000000u : (uInt)length;
    crc = (uint32_t)crc32(crc, bytes, chunk);
    bytes += chunk;
    length -= chunk;
  }
  return crc;
}

void CImagoShims_free(void *pointer) { free(pointer); }
