/*
 * fuzz-trace — libFuzzer entry point for the trace decoder: each input is
 * a trace region's raw (decompressed) bytes, decoded, regrouped and walked
 * by logr_harness_trace().  Mutating raw bytes reaches the decoder far
 * more often than mutating whole logs, whose regions are compressed.
 * Built and run by tests/fuzz/run-fuzz --trace, never by the normal build.
 */
#include <stddef.h>
#include <stdint.h>

#include "logr-harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned long items;

	logr_harness_trace(data, size, &items);
	return 0;
}
