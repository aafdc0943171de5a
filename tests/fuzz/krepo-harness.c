/*
 * krepo-harness — what `kernel list`, `search` and `pull` do with the bytes
 * a repository sends, without the transfers: the bytes as an index (every
 * entry shown as list shows it, a kernel looked up and its folder
 * checked), as a package's meta.json (parsed and checked), and as text for
 * a terminal.  Shared by the fuzzer (fuzz-krepo.c, tests/fuzz/run-fuzz
 * --krepo) and the corpus replay (tests/jobs/t6006-package-corpus.c).
 */
#include "krepo-harness.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "kpkg.h"

/*
 * Text shown on a terminal holds no C0 control, no DEL and no UTF-8 C1
 * control; a line of `kernel list` only its two tabs and its newline.
 */
static void check_display(const struct ioa_buf *b, int list_line)
{
	size_t i, tabs = 0;

	if (list_line && (b->len < 1 || b->data[b->len - 1] != '\n'))
		abort();
	for (i = 0; i < b->len - (list_line ? 1 : 0); i++) {
		unsigned char c = (unsigned char)b->data[i];

		tabs += c == '\t';
		if ((c < 0x20 && !(list_line && c == '\t')) || c == 0x7f ||
		    (c == 0xc2 && i + 1 < b->len && (unsigned char)b->data[i + 1] >= 0x80 &&
		     (unsigned char)b->data[i + 1] <= 0x9f))
			abort();
	}
	if (list_line && tabs != 2)
		abort();
}

static int read_index(const char *text, size_t len, unsigned long *items)
{
	struct ioa_buf err = IOA_BUF_INIT(1024), line = IOA_BUF_INIT(4 * KPKG_INDEX_MAX);
	json_object *idx = kpkg_index_parse(text, len, "index.json", &err), *list, *k;
	char rel[1024];
	size_t i, n;

	if (!idx) {
		ioa_buf_release(&err);
		return -EINVAL;
	}
	list = json_object_object_get(idx, "kernels");
	n = json_object_array_length(list);
	for (i = 0; i < n; i++) {
		ioa_buf_reset(&line);
		if (!kpkg_entry_line(json_object_array_get_idx(list, i), &line))
			check_display(&line, 1);
		++*items;
	}
	if ((k = kpkg_index_find(idx, "fpp", NULL)))
		kpkg_entry_folder(k, "fpp", rel, sizeof(rel), "index.json", &err);
	if ((k = kpkg_index_find(idx, "fpp", "1")))
		kpkg_entry_folder(k, "fpp", rel, sizeof(rel), "index.json", &err);
	check_display(&err, 0);
	json_object_put(idx);
	ioa_buf_release(&line);
	ioa_buf_release(&err);
	return 0;
}

static int read_meta(const char *text, size_t len, unsigned long *items)
{
	struct ioa_buf err = IOA_BUF_INIT(1024);
	struct kpkg p = KPKG_INIT;
	size_t i, bytes = 0;
	int rc = kpkg_parse(&p, text, len, NULL, NULL, "meta.json", &err);

	if (!rc) {
		if (p.nfiles > KPKG_FILES_MAX || p.bytes > KPKG_BYTES_MAX)
			abort();
		for (i = 0; i < p.nfiles; i++) {
			if (!kpkg_safe_name(p.files[i].name) || p.files[i].name[0] == '.' ||
			    strlen(p.files[i].sha256) != 64)
				abort();
			bytes += p.files[i].size;
		}
		if (bytes != p.bytes)
			abort();
		*items += p.nfiles;
	}
	check_display(&err, 0);
	/* As pull reads it: for the kernel asked for. */
	kpkg_parse(&p, text, len, "fpp", "1", "meta.json", &err);
	check_display(&err, 0);
	kpkg_release(&p);
	ioa_buf_release(&err);
	return rc;
}

int krepo_harness_read(const void *data, size_t len, unsigned long *items)
{
	struct ioa_buf shown = IOA_BUF_INIT(4 * len + 16);
	char *text = malloc(len + 1);
	int as_index, as_meta;

	*items = 0;
	if (!text)
		return -ENOMEM;
	memcpy(text, data, len);
	text[len] = '\0';
	as_index = read_index(text, len, items);
	as_meta = read_meta(text, len, items);
	if (!kpkg_add_display(&shown, text))
		check_display(&shown, 0);
	ioa_buf_release(&shown);
	free(text);
	return as_index && as_meta ? as_meta : 0;
}
