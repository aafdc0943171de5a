/*
 * ioa_compiler — the few compiler annotations the code base uses, spelled
 * once so that a compiler without them still builds the code.
 */
#ifndef IOA_COMPILER_H
#define IOA_COMPILER_H

#if defined(__GNUC__)
/* Checks a printf-style format at fmt_idx against the arguments from arg_idx. */
#define IOA_PRINTF(fmt_idx, arg_idx) __attribute__((format(printf, fmt_idx, arg_idx)))
#else
#define IOA_PRINTF(fmt_idx, arg_idx)
#endif

#endif
