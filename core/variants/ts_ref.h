/* Plain scalar references, one per filter, written straight from SPEC section 3 and
 * independent of the variants' tiling: what every variant and back end is tested against. */
#ifndef TS_REF_H
#define TS_REF_H

#include "ts_image.h"

ts_status ts_ref_box3(const ts_image *in, ts_image **out, ts_error *err);
/* sigma <= 0 selects the default for ksize. */
ts_status ts_ref_gauss(const ts_image *in, int ksize, double sigma, ts_image **out,
                       ts_error *err);
/* W x H uint32 sums of luma (grey passes through), wrapping modulo 2^32; free() the result. */
ts_status ts_ref_integral(const ts_image *in, uint32_t **out, ts_error *err);

#endif
