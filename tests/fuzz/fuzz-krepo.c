/*
 * fuzz-krepo — libFuzzer entry point for what a kernel repository gives a
 * pull: each input is read as an index, as a package's meta.json and as
 * text for a terminal by krepo_harness_read().  Built and run by
 * tests/fuzz/run-fuzz --krepo (clang), never by the normal build.
 */
#include <stddef.h>
#include <stdint.h>

#include "krepo-harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned long items;

	krepo_harness_read(data, size, &items);
	return 0;
}
