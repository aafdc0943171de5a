/*
 * rt_recover — one dead process's spill (rt_spill.h) into log regions.
 *
 * The spill is the process's arena: mapped at the address it had there
 * (private, so the file stays as it was), it is the runtime's state again,
 * and the runtime's own packing code turns it into regions.  That means
 * following pointers in a file its user could have written: so it runs in
 * a child made for one spill, which maps it, keeps its two outputs, and
 * shuts itself in (a seccomp filter: read, write, memory, its own signal
 * stack and mask, exit; every other system call fails with EPERM) before
 * it touches a pointer.  What it writes back — a log of the rank's
 * regions and one number — is read as untrusted input, as every log is.
 */
#ifndef RT_RECOVER_H
#define RT_RECOVER_H

#include <stdint.h>

#include "rt_spill.h"

/*
 * Reads and checks the header of the spill open on fd (regular file of the
 * arena's size, magic, this build's layout, a plausible address) into
 * *head, and what it says of its process into *info; strings are cut to
 * their fields.  Plain data, no pointer followed.  0, -EPROTO (another
 * build's spill: recover with its ioatlas), -ENODATA (a spill never
 * started), or -EINVAL.
 */
int rt_recover_head(int fd, struct rt_live *head, struct rt_spill_info *info);

/* Seconds per tick of the process, from its two clock readings. */
double rt_recover_tick_s(const struct rt_live *head, const struct rt_spill_info *info);

/*
 * In a child made for it, never returning: maps the spill open on fd,
 * shuts itself in, packs the rank's records and trace as a log into
 * out_fd, its times moved to the job's clock that starts at job_start_ns
 * (rt_log_on_wall_clock()), and writes to until_fd the ticks (since the
 * process's start) up to which it recorded, 8 bytes.  Exits 0, or 1 with
 * a message on stderr.
 */
__attribute__((noreturn)) void rt_recover_child(int fd, const struct rt_live *head,
						const struct rt_spill_info *info, int out_fd,
						int until_fd, uint64_t job_start_ns);

#endif
