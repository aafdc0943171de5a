/*
 * ioa_fault — the fault-point switch of test builds (see ioa_fault.h).  This
 * file is compiled only into the *_fault library variants that tests link.
 */
#include "ioa_fault.h"

#include <string.h>

static const char *armed_name;
static unsigned long armed_passes_left;

void ioa_fault_arm(const char *name, unsigned long after)
{
	armed_name = name;
	armed_passes_left = after;
}

void ioa_fault_disarm(void)
{
	armed_name = NULL;
}

int ioa_fault_hit(const char *name)
{
	if (!armed_name || strcmp(armed_name, name))
		return 0;
	if (armed_passes_left) {
		armed_passes_left--;
		return 0;
	}
	return 1;
}
