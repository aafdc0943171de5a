/*
 * ioa_fault — the fault-point switch of test builds (see ioa_fault.h).  This
 * file is compiled only into the *_fault library variants that tests link.
 */
#include "ioa_fault.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *armed_name;
static unsigned long armed_passes_left;
static int armed_from_env, fired_said;
static char env_name[64];

void ioa_fault_arm(const char *name, unsigned long after)
{
	armed_from_env = 1; /* an explicit arming wins over the environment */
	armed_name = name;
	armed_passes_left = after;
	fired_said = 0;
}

void ioa_fault_disarm(void)
{
	armed_from_env = 1;
	armed_name = NULL;
}

/* IOATLAS_FAULT=NAME:AFTER arms a point in a program (the collector's sweep, t2006). */
static void arm_from_env(void)
{
	const char *env = getenv("IOATLAS_FAULT");
	const char *colon = env ? strchr(env, ':') : NULL;
	char *end;
	unsigned long after;

	armed_from_env = 1;
	if (!colon || (size_t)(colon - env) >= sizeof(env_name))
		return;
	after = strtoul(colon + 1, &end, 10);
	if (*end)
		return;
	memcpy(env_name, env, (size_t)(colon - env));
	env_name[colon - env] = '\0';
	armed_name = env_name;
	armed_passes_left = after;
}

int ioa_fault_hit(const char *name)
{
	if (!armed_from_env)
		arm_from_env();
	if (!armed_name || strcmp(armed_name, name))
		return 0;
	if (armed_passes_left) {
		armed_passes_left--;
		return 0;
	}
	/* Said once per process, so that a test knows the point was reached. */
	if (!fired_said++)
		fprintf(stderr, "ioatlas: fault point '%s' fired\n", name);
	return 1;
}
