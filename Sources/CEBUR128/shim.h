#ifndef KILN_CEBUR128_SHIM_H
#define KILN_CEBUR128_SHIM_H
// libebur128: EBU R128 / ITU-R BS.1770 loudness (integrated loudness, true peak) of a mix.
#include <ebur128.h>
#endif
