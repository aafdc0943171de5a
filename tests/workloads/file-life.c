/*
 * file-life — files created, removed and rewritten in place, with the truth
 * printed by the program itself (t1040 to t1042):
 *
 *	file-life creates DIR    files made by every stdio and temporary-file
 *	                         call (fopen modes, freopen, tmpfile, the mkstemp
 *	                         family, mkdtemp, O_TMPFILE), some removed with
 *	                         remove(); prints "r LABEL RESULT [mode M]" per
 *	                         call (what the program saw: the same with and
 *	                         without the runtime), "c PATH" per file or folder
 *	                         it created (it asked whether it existed before),
 *	                         "x PATH" per one it removed, "t NAME" per unnamed
 *	                         file (NAME from /proc/self/fd, " (deleted)" cut)
 *	file-life rewrites DIR N  an HDF5-shaped pattern on DIR/meta: N small
 *	                         metadata blocks at scattered offsets between
 *	                         large raw-data writes, then rewrites of some of
 *	                         them (headers updated at close); prints the
 *	                         truth, from a byte map of the file:
 *	                         "expect WRITES OVERWRITES BYTES FIRST_OFFSET"
 *	file-life cap DIR N K    DIR/cap: N disjoint 1-byte writes 4 bytes apart,
 *	                         then rewrites of the first K and the last K;
 *	                         prints "expect WRITES OVERWRITES BYTES FIRST" and
 *	                         "kept OVERWRITES BYTES" (the rewrites of the
 *	                         first K alone)
 *	file-life reset DIR      rewrites around truncation, O_TRUNC, fopen "w",
 *	                         unlink, remove and rename over: one file each,
 *	                         "expect NAME OVERWRITES BYTES FIRST" per file
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHECK(x)                                                                                 \
	do {                                                                                     \
		if (!(x)) {                                                                      \
			fprintf(stderr, "file-life: %s:%d: %s failed: %s\n", __FILE__, __LINE__, \
				#x, strerror(errno));                                            \
			exit(1);                                                                 \
		}                                                                                \
	} while (0)

static const char *dir;

static const char *in_dir(const char *name)
{
	static char paths[8][PATH_MAX];
	static unsigned next;
	char *p = paths[next++ % 8];

	snprintf(p, PATH_MAX, "%s/%s", dir, name);
	return p;
}

static int missing(const char *path)
{
	struct stat st;

	return lstat(path, &st) != 0 && errno == ENOENT;
}

/* One call's outcome as the program saw it, and the file's mode after. */
static void result(const char *label, const char *path, int ok, int err)
{
	struct stat st;

	printf("r %s %s", label, ok ? "ok" : strerrorname_np(err));
	if (path && stat(path, &st) == 0)
		printf(" mode %o", (unsigned)st.st_mode & 07777);
	printf("\n");
}

static void stream_open(const char *label, const char *name, const char *mode)
{
	const char *path = in_dir(name);
	int was_missing = missing(path), err;
	FILE *f;

	errno = 0;
	f = fopen(path, mode);
	err = errno;
	result(label, path, f != NULL, err);
	if (f) {
		CHECK(fclose(f) == 0);
		if (was_missing)
			printf("c %s\n", path);
	}
}

static void unnamed(FILE *f, int fd)
{
	char link[64], name[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", f ? fileno(f) : fd);
	CHECK((n = readlink(link, name, sizeof(name) - 1)) > 0);
	name[n] = '\0';
	if (n > 10 && !strcmp(name + n - 10, " (deleted)"))
		name[n - 10] = '\0';
	printf("t %s\n", name);
}

static void made(const char *label, char *path, int fd)
{
	result(label, NULL, fd >= 0, errno);
	CHECK(fd >= 0 && write(fd, "data\n", 5) == 5 && close(fd) == 0);
	printf("c %s\n", path);
}

static void creates(void)
{
	char t[8][PATH_MAX];
	const char *path;
	FILE *f;
	int fd, i, was_missing;

	umask(027);
	stream_open("fopen-w-new", "w1", "w");
	stream_open("fopen-w-there", "w1", "w");
	stream_open("fopen-a-new", "a1", "a");
	stream_open("fopen-a+-there", "a1", "a+");
	stream_open("fopen-r+-missing", "r1", "r+");
	stream_open("fopen-wx-new", "x1", "wx");
	stream_open("fopen-wx-there", "x1", "wx");
	stream_open("fopen-w+be-new", "w2", "w+be");
	stream_open("fopen-w+c-new", "w3", "w+c");
	stream_open("fopen-long-mode-new", "w4", "wbbbbbe");
	stream_open("fopen-folder", ".", "w");
	stream_open("fopen-no-folder", "none/w5", "w");

	path = in_dir("w6");
	was_missing = missing(path);
	errno = 0;
	f = fopen64(path, "w+");
	result("fopen64-new", path, f != NULL, errno);
	CHECK(f && fclose(f) == 0 && was_missing);
	printf("c %s\n", path);

	/* freopen onto a new file, then onto one that exists. */
	CHECK((f = fopen(in_dir("w1"), "r")));
	path = in_dir("f1");
	was_missing = missing(path);
	errno = 0;
	f = freopen(path, "w", f);
	result("freopen-new", path, f != NULL, errno);
	CHECK(f && was_missing);
	printf("c %s\n", path);
	errno = 0;
	f = freopen64(in_dir("w1"), "a", f);
	result("freopen64-there", in_dir("w1"), f != NULL, errno);
	CHECK(f && fclose(f) == 0);

	/* Files without names. */
	CHECK((f = tmpfile()));
	result("tmpfile", NULL, 1, 0);
	unnamed(f, -1);
	CHECK(fputs("scratch\n", f) >= 0 && fclose(f) == 0);
	CHECK((f = tmpfile64()));
	result("tmpfile64", NULL, 1, 0);
	unnamed(f, -1);
	CHECK(fclose(f) == 0);
	fd = open(dir, O_TMPFILE | O_RDWR, 0600);
	result("open-O_TMPFILE", NULL, fd >= 0, errno);
	unnamed(NULL, fd);
	CHECK(fd >= 0 && write(fd, "scratch\n", 8) == 8 && close(fd) == 0);

	/* The mkstemp family, each file removed (remove or unlink) or kept. */
	for (i = 0; i < 8; i++)
		snprintf(t[i], PATH_MAX, "%s/m%dXXXXXX%s", dir, i, i >= 4 ? ".s" : "");
	made("mkstemp", t[0], mkstemp(t[0]));
	made("mkstemp64", t[1], mkstemp64(t[1]));
	made("mkostemp", t[2], mkostemp(t[2], O_APPEND));
	made("mkostemp64", t[3], mkostemp64(t[3], O_CLOEXEC));
	made("mkstemps", t[4], mkstemps(t[4], 2));
	made("mkstemps64", t[5], mkstemps64(t[5], 2));
	made("mkostemps", t[6], mkostemps(t[6], 2, O_APPEND));
	made("mkostemps64", t[7], mkostemps64(t[7], 2, 0));
	for (i = 0; i < 8; i += 2) {
		CHECK(remove(t[i]) == 0);
		printf("x %s\n", t[i]);
	}
	CHECK(unlink(t[1]) == 0);
	printf("x %s\n", t[1]);

	/* Folders: mkdtemp, then remove() of an empty one; remove of a full one fails. */
	snprintf(t[0], PATH_MAX, "%s/dXXXXXX", dir);
	CHECK(mkdtemp(t[0]));
	result("mkdtemp", NULL, 1, 0);
	printf("c %s\n", t[0]);
	CHECK(remove(t[0]) == 0);
	printf("x %s\n", t[0]);
	CHECK(mkdir(in_dir("full"), 0755) == 0);
	printf("c %s\n", in_dir("full"));
	stream_open("fopen-in-full", "full/f", "w");
	errno = 0;
	i = remove(in_dir("full"));
	result("remove-full-folder", NULL, i == 0, errno);
	errno = 0;
	i = remove(in_dir("nothing"));
	result("remove-missing", NULL, i == 0, errno);

	/* A stream's file removed: its stdio record knows. */
	CHECK(remove(in_dir("w2")) == 0);
	printf("x %s\n", in_dir("w2"));
}

/* Byte map of one file: the rewrites, as the runtime defines them. */
struct truth {
	unsigned char *written;
	size_t size;
	long writes, overwrites;
	long long bytes, first;
};

static void truth_init(struct truth *t, size_t size)
{
	CHECK((t->written = calloc(size, 1)));
	t->size = size;
	t->writes = t->overwrites = 0;
	t->bytes = 0;
	t->first = -1;
}

static void truth_cut(struct truth *t, size_t length)
{
	if (length < t->size)
		memset(t->written + length, 0, t->size - length);
}

static void put(int fd, struct truth *t, size_t offset, size_t len)
{
	static char buf[1 << 16];
	long long again = 0;
	size_t i;

	CHECK(offset + len <= t->size && len <= sizeof(buf));
	memset(buf, 'a' + (int)(offset % 26), len);
	CHECK(pwrite(fd, buf, len, (off_t)offset) == (ssize_t)len);
	for (i = offset; i < offset + len; i++) {
		again += t->written[i];
		t->written[i] = 1;
	}
	t->writes++;
	if (again) {
		t->overwrites++;
		t->bytes += again;
		if (t->first < 0)
			t->first = (long long)offset;
	}
}

static void expect(const char *name, const struct truth *t)
{
	printf("expect %s %ld %ld %lld %lld\n", name, t->writes, t->overwrites, t->bytes, t->first);
}

static uint64_t rng = 88172645463325252ull;

static unsigned next_random(unsigned below)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % below);
}

/*
 * HDF5's layout in small: metadata blocks (object headers, B-tree nodes,
 * heaps; 40 to 600 bytes) allocated between raw-data chunks, then at close
 * some headers rewritten in part and the superblock's end-of-file address.
 */
static void rewrites(long n)
{
	const size_t slot = 8192, size = (size_t)n * slot + 4096;
	size_t *at = calloc((size_t)n, sizeof(*at)), *len = calloc((size_t)n, sizeof(*len));
	struct truth t;
	long i;
	int fd;

	CHECK(at && len);
	truth_init(&t, size);
	CHECK((fd = open(in_dir("meta"), O_CREAT | O_RDWR | O_TRUNC, 0644)) >= 0);
	put(fd, &t, 0, 96); /* superblock */
	for (i = 0; i < n; i++) {
		at[i] = 4096 + (size_t)i * slot + 8 * next_random(64);
		len[i] = 40 + 8 * next_random(70);
		put(fd, &t, at[i], len[i]);
		if (i % 4 == 3)
			put(fd, &t, at[i] + len[i] + 512, 2048); /* a raw-data chunk */
	}
	for (i = 0; i < n / 40; i++) {
		long k = (long)next_random((unsigned)n);

		put(fd, &t, at[k] + 8 * next_random((unsigned)(len[k] / 8)), 16);
	}
	/* A header rewritten whole, grown into the gap after it. */
	put(fd, &t, at[n / 2], len[n / 2] + 64);
	put(fd, &t, 0, 96);
	CHECK(close(fd) == 0);
	expect("meta", &t);
	free(at);
	free(len);
	free(t.written);
}

static void cap(long n, long k)
{
	struct truth t;
	long i;
	long long kept_bytes = 0, kept = 0;
	int fd;

	truth_init(&t, (size_t)n * 4 + 4);
	CHECK((fd = open(in_dir("cap"), O_CREAT | O_RDWR | O_TRUNC, 0644)) >= 0);
	for (i = 0; i < n; i++)
		put(fd, &t, (size_t)i * 4, 1);
	for (i = 0; i < k; i++) {
		put(fd, &t, (size_t)i * 4, 1);
		kept++;
		kept_bytes++;
	}
	for (i = n - k; i < n; i++)
		put(fd, &t, (size_t)i * 4, 1);
	CHECK(close(fd) == 0);
	expect("cap", &t);
	printf("kept %lld %lld\n", kept, kept_bytes);
	free(t.written);
}

static int reopen(const char *name, int flags)
{
	int fd = open(in_dir(name), O_RDWR | flags, 0644);

	CHECK(fd >= 0);
	return fd;
}

static void reset(void)
{
	struct truth t;
	FILE *f;
	int fd;

	/* ftruncate: bytes past the new end are new again; those before are not. */
	truth_init(&t, 8192);
	fd = reopen("trunc", O_CREAT | O_TRUNC);
	put(fd, &t, 0, 4096);
	CHECK(ftruncate(fd, 1024) == 0);
	truth_cut(&t, 1024);
	put(fd, &t, 1024, 3072);
	put(fd, &t, 1000, 100);
	CHECK(truncate(in_dir("trunc"), 0) == 0);
	truth_cut(&t, 0);
	put(fd, &t, 0, 512);
	CHECK(close(fd) == 0);
	expect("trunc", &t);
	free(t.written);

	/* O_TRUNC and fopen "w" empty the file. */
	truth_init(&t, 8192);
	fd = reopen("otrunc", O_CREAT | O_TRUNC);
	put(fd, &t, 0, 512);
	CHECK(close(fd) == 0);
	fd = reopen("otrunc", O_TRUNC);
	truth_cut(&t, 0);
	put(fd, &t, 0, 512);
	CHECK(close(fd) == 0);
	CHECK((f = fopen(in_dir("otrunc"), "w")) && fclose(f) == 0);
	truth_cut(&t, 0);
	fd = reopen("otrunc", 0);
	put(fd, &t, 256, 512);
	put(fd, &t, 0, 300);
	CHECK(close(fd) == 0);
	expect("otrunc", &t);
	free(t.written);

	/* unlink or remove, then made again: the new file's writes rewrite nothing. */
	truth_init(&t, 8192);
	fd = reopen("again", O_CREAT);
	put(fd, &t, 0, 1024);
	CHECK(close(fd) == 0 && unlink(in_dir("again")) == 0);
	truth_cut(&t, 0);
	fd = reopen("again", O_CREAT);
	put(fd, &t, 0, 1024);
	CHECK(close(fd) == 0 && remove(in_dir("again")) == 0);
	truth_cut(&t, 0);
	fd = reopen("again", O_CREAT);
	put(fd, &t, 512, 1024);
	put(fd, &t, 0, 600);
	CHECK(close(fd) == 0);
	expect("again", &t);
	free(t.written);

	/* Renamed over: the name holds another file. */
	truth_init(&t, 8192);
	fd = reopen("over", O_CREAT);
	put(fd, &t, 0, 1024);
	CHECK(close(fd) == 0);
	fd = reopen("other", O_CREAT);
	CHECK(write(fd, "other", 5) == 5 && close(fd) == 0);
	CHECK(rename(in_dir("other"), in_dir("over")) == 0);
	truth_cut(&t, 0);
	fd = reopen("over", 0);
	put(fd, &t, 0, 1024);
	CHECK(close(fd) == 0);
	expect("over", &t);
	free(t.written);

	/*
	 * Exchanged (renameat2 RENAME_EXCHANGE): each name holds the other's
	 * file.  Where the file system cannot exchange, nothing moved, and the
	 * truth says so.
	 */
	truth_init(&t, 8192);
	fd = reopen("xa", O_CREAT);
	put(fd, &t, 0, 1024);
	CHECK(close(fd) == 0);
	fd = reopen("xb", O_CREAT);
	CHECK(write(fd, "other", 5) == 5 && close(fd) == 0);
	if (renameat2(AT_FDCWD, in_dir("xa"), AT_FDCWD, in_dir("xb"), RENAME_EXCHANGE) == 0)
		truth_cut(&t, 0);
	fd = reopen("xa", 0);
	put(fd, &t, 0, 1024);
	CHECK(close(fd) == 0);
	expect("xa", &t);
	free(t.written);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 2 ? argv[1] : "";
	long n = argc > 3 ? strtol(argv[3], NULL, 10) : 0;
	long k = argc > 4 ? strtol(argv[4], NULL, 10) : 0;

	dir = argc > 2 ? argv[2] : ".";
	if (!strcmp(mode, "creates"))
		creates();
	else if (!strcmp(mode, "rewrites") && n > 1)
		rewrites(n);
	else if (!strcmp(mode, "cap") && n > 2 * k && k > 0)
		cap(n, k);
	else if (!strcmp(mode, "reset"))
		reset();
	else {
		fprintf(stderr, "usage: file-life creates|rewrites|cap|reset DIR [N [K]]\n");
		return 2;
	}
	return fflush(stdout) == 0 ? 0 : 1;
}
