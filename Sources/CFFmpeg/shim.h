#ifndef KILN_CFFMPEG_SHIM_H
#define KILN_CFFMPEG_SHIM_H
// The only C surface Kiln uses from FFmpeg. Macros that Swift cannot import are re-exported as
// static inline functions here; nothing else lives in this target.
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/tx.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>

static inline int kiln_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int kiln_averror(int posix_error) { return AVERROR(posix_error); }
static inline int kiln_averror_eof(void) { return AVERROR_EOF; }
static inline int64_t kiln_av_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline int kiln_avfmt_flag_nofile(void) { return AVFMT_NOFILE; }
static inline int kiln_avfmt_globalheader(void) { return AVFMT_GLOBALHEADER; }
static inline int kiln_codec_flag_global_header(void) { return AV_CODEC_FLAG_GLOBAL_HEADER; }
static inline int kiln_avio_flag_write(void) { return AVIO_FLAG_WRITE; }
static inline int kiln_av_error_max_string_size(void) { return AV_ERROR_MAX_STRING_SIZE; }
static inline int kiln_codec_cap_small_last_frame(void) { return AV_CODEC_CAP_SMALL_LAST_FRAME; }
static inline int kiln_codec_cap_variable_frame_size(void) { return AV_CODEC_CAP_VARIABLE_FRAME_SIZE; }
#endif
