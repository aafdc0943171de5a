/*
 * report_html — one self-contained page from a report's model (see
 * report.h): inline CSS, inline SVG plots drawn here, a few lines of
 * inline script to sort the files table, and a Content-Security-Policy
 * that forbids the page any network access.  Every string of the model is
 * escaped on its way out.
 */
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "html.h"
#include "report.h"

static json_object *get(json_object *o, const char *key)
{
	return json_object_object_get(o, key);
}

static const char *gets(json_object *o, const char *key)
{
	const char *s = json_object_get_string(get(o, key));

	return s ? s : "";
}

static double getd(json_object *o, const char *key)
{
	return json_object_get_double(get(o, key));
}

/*
 * Sorting the files table by a column, numbers as numbers; a link to a
 * file's row or a rank opens its drill-down; printing opens them all.
 */
static const char script[] =
	"function ioaOpen(){var t=location.hash&&document.getElementById(location.hash.slice(1));"
	"var d=t&&(t.tagName==='DETAILS'?t:t.querySelector('details'));if(d)d.open=true;}"
	"window.addEventListener('hashchange',ioaOpen);ioaOpen();"
	"window.addEventListener('beforeprint',function(){"
	"document.querySelectorAll('details').forEach(function(d){d.open=true;});});"
	"document.querySelectorAll('table.files th').forEach(function(th,i){"
	"th.addEventListener('click',function(){"
	"var t=th.closest('table'),b=t.tBodies[0],rows=Array.from(b.rows),"
	"d=th.dataset.dir=th.dataset.dir==='asc'?'desc':'asc';"
	"rows.sort(function(x,y){var a=x.cells[i].dataset.v||x.cells[i].textContent,"
	"c=y.cells[i].dataset.v||y.cells[i].textContent,na=parseFloat(a),nc=parseFloat(c),"
	"r=(!isNaN(na)&&!isNaN(nc))?na-nc:a.localeCompare(c);return d==='asc'?r:-r;});"
	"rows.forEach(function(r){b.appendChild(r);});});});";

/*
 * The settings, one per line: their display form writes the newlines
 * between them as "\n" (the page's .settings style breaks at real ones).
 */
static void settings_lines(struct html *p, const char *text)
{
	char *copy = strdup(text), *line, *next;

	if (!copy) {
		html_esc(p, text);
		return;
	}
	for (line = copy; line; line = next) {
		next = strstr(line, "\\n");
		if (next) {
			*next = '\0';
			next += 2;
		}
		html_esc(p, line);
		if (next)
			html_put(p, "\n");
	}
	free(copy);
}

static void header(struct html *p, json_object *m)
{
	json_object *job = get(m, "job"), *c = get(m, "completeness"), *hosts = get(job, "hosts");
	char buf[64];
	size_t i;

	char title[256];

	snprintf(title, sizeof(title), "I/O report: job %s",
		 gets(job, "jobid")[0] ? gets(job, "jobid") : gets(job, "start"));
	html_begin(p, title);
	html_put(p, "<h1>I/O report: ");
	html_esc(p, gets(job, "executable"));
	html_put(p, "</h1>\n");
	/* A partial log says so first, in a sentence: how the job ended, what it left. */
	if (get(job, "partial")) {
		html_put(p, "<p class=\"banner partial\">");
		html_esc(p, gets(get(job, "partial"), "sentence"));
		html_put(p, "</p>\n");
	}
	html_put(p, "<table class=\"facts\">\n");
	{
		static const char *const rows[][2] = {{"jobid", "scheduler job"},
						      {"user", "user"},
						      {"executable", "executable"},
						      {"args", "arguments"},
						      {"start", "start"},
						      {"runtime_version", "runtime version"},
						      {"source", "from"}};

		for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
			html_put(p, "<tr><td>%s</td><td class=\"name\">", rows[i][1]);
			html_esc(p, gets(job, rows[i][0]));
			html_put(p, "</td></tr>\n");
		}
	}
	if (json_object_get_int64(get(job, "id")))
		html_put(p, "<tr><td>warehouse job</td><td>%lld</td></tr>\n",
			 (long long)json_object_get_int64(get(job, "id")));
	html_put(p, "<tr><td>ranks, nodes</td><td>%d ranks on %d node%s",
		 json_object_get_int(get(job, "ranks")), json_object_get_int(get(job, "nodes")),
		 json_object_get_int(get(job, "nodes")) == 1 ? "" : "s");
	for (i = 0; i < report_len(hosts) && i < 16; i++) {
		html_put(p, "%s", i ? ", " : ": ");
		html_esc(p, json_object_get_string(json_object_array_get_idx(hosts, i)));
	}
	if (report_len(hosts) > 16)
		html_put(p, " and %zu more", report_len(hosts) - 16);
	snprintf(buf, sizeof(buf), "%.3f s", getd(job, "seconds"));
	html_put(p, "</td></tr>\n<tr><td>run time</td><td>%s</td></tr>\n", buf);
	html_put(p, "<tr><td>clock</td><td>");
	html_esc(p, gets(get(job, "clock"), "sentence"));
	html_put(p, "</td></tr>\n");
	html_put(p, "<tr><td>settings</td><td class=\"name settings\">");
	settings_lines(p, gets(job, "settings"));
	html_put(p, "</td></tr>\n</table>\n");
	if (!json_object_get_boolean(get(c, "complete"))) {
		json_object *notes = get(c, "notes");

		html_put(p, "<div class=\"banner\"><b>Incomplete view.</b><ul>");
		for (i = 0; i < report_len(notes); i++) {
			html_put(p, "<li>");
			html_esc(p, json_object_get_string(json_object_array_get_idx(notes, i)));
			html_put(p, "</li>");
		}
		html_put(p, "</ul></div>\n");
	}
}

/* Evidence shows at most this many items of a list, and tables this deep. */
#define EVIDENCE_ITEMS 24
#define EVIDENCE_DEPTH 3

/* A key in words: underscores as spaces ("bytes_written": "bytes written"). */
static void key_words(struct html *p, const char *key)
{
	char words[128];
	size_t i;

	snprintf(words, sizeof(words), "%s", key);
	for (i = 0; words[i]; i++)
		if (words[i] == '_')
			words[i] = ' ';
	html_esc(p, words);
}

/* The row of the files table whose file is name, or -1. */
static int file_row(json_object *files, const char *name)
{
	size_t i;

	for (i = 0; i < report_len(files); i++)
		if (!strcmp(gets(json_object_array_get_idx(files, i), "file"), name))
			return (int)i;
	return -1;
}

/* A file's name, linked to its row of the files table when it has one. */
static void file_link(struct html *p, const char *name, json_object *m)
{
	int row = file_row(get(m, "files"), name);

	if (row >= 0)
		html_put(p, "<a href=\"#file-%d\">", row);
	html_esc(p, name);
	if (row >= 0)
		html_put(p, "</a>");
}

static void evidence_value(struct html *p, const char *key, json_object *v, json_object *m,
			   int depth);

/* An object as a table of its keys in words and their values. */
static void evidence_table(struct html *p, json_object *o, json_object *m, int depth)
{
	html_put(p, "<table class=\"evidence\">");
	json_object_object_foreach(o, key, v)
	{
		html_put(p, "<tr><th>");
		key_words(p, key);
		html_put(p, "</th><td>");
		evidence_value(p, key, v, m, depth + 1);
		html_put(p, "</td></tr>");
	}
	html_put(p, "</table>");
}

/* A rank, linked to its drill-down when the page has one. */
static void rank_link(struct html *p, long long rank, json_object *m)
{
	char name[24];

	snprintf(name, sizeof(name), "%lld", rank);
	if (get(get(m, "rank_files"), name))
		html_put(p, "<a href=\"#rank-%lld\">%lld</a>", rank, rank);
	else
		html_put(p, "%lld", rank);
}

/* A rank list ("0,3-5"), each rank that has a drill-down linked. */
static void rank_list(struct html *p, const char *s, json_object *m)
{
	while (*s) {
		char *end;
		long long a = strtoll(s, &end, 10);

		if (end == s || a < 0) {
			html_esc(p, s);
			return;
		}
		rank_link(p, a, m);
		s = end;
		if (*s == '-' || *s == ',')
			html_put(p, "%c", *s++);
	}
}

/*
 * A value of the evidence: numbers in the unit their key names (bytes in
 * IEC units, seconds), a file's name linked to its row of the files table
 * and a rank to its files, lists as their first items, objects as tables.
 */
static void evidence_value(struct html *p, const char *key, json_object *v, json_object *m,
			   int depth)
{
	char buf[64];
	size_t i, n;

	switch (json_object_get_type(v)) {
	case json_type_null:
		html_put(p, "-");
		break;
	case json_type_int:
		if (report_names_rank(key)) {
			rank_link(p, (long long)json_object_get_int64(v), m);
			break;
		}
		/* fall through */
	case json_type_double:
		if (strstr(key, "cv") || strstr(key, "share") || strstr(key, "ratio"))
			html_put(p, "%.4g", json_object_get_double(v));
		else if (strstr(key, "bytes") || !strcmp(key, "size") || !strcmp(key, "sizes"))
			html_put(p, "%s", html_bytes(json_object_get_double(v), buf, sizeof(buf)));
		else if (strstr(key, "time") || strstr(key, "seconds") || !strcmp(key, "period") ||
			 strstr(key, "gap"))
			html_put(p, "%.4g s", json_object_get_double(v));
		else
			html_put(p, "%.4g", json_object_get_double(v));
		break;
	case json_type_string:
		if (report_names_rank(key)) {
			rank_list(p, json_object_get_string(v), m);
			break;
		}
		file_link(p, json_object_get_string(v), m);
		break;
	case json_type_array:
		n = report_len(v);
		for (i = 0; i < n && i < EVIDENCE_ITEMS; i++) {
			if (i)
				html_put(p, json_object_is_type(json_object_array_get_idx(v, i),
								json_type_object)
						    ? ""
						    : ", ");
			evidence_value(p, key, json_object_array_get_idx(v, i), m, depth);
		}
		if (n > EVIDENCE_ITEMS)
			html_put(p, " <span class=\"muted\">and %zu more</span>",
				 n - EVIDENCE_ITEMS);
		break;
	case json_type_object:
		if (depth < EVIDENCE_DEPTH)
			evidence_table(p, v, m, depth);
		else
			html_put(p, "...");
		break;
	default:
		html_esc(p, json_object_get_string(v));
	}
}

/*
 * A what-if replay: "--hint cb_nodes=4: 1.23 s -> 0.98 s (-20.3%), medians of
 * 5 runs of the kernel".  code: those answering this finding only (NULL: all).
 */
static void whatif_lines(struct html *p, json_object *m, const char *code)
{
	json_object *list = get(m, "whatif");
	size_t i;

	for (i = 0; i < report_len(list); i++) {
		json_object *w = json_object_array_get_idx(list, i);
		double base = getd(w, "base_seconds"), changed = getd(w, "changed_seconds");

		if (code && strcmp(code, gets(w, "finding")))
			continue;
		html_put(p, "<div class=\"whatif\">What-if on the job's kernel (");
		html_esc(p, gets(w, "kernel"));
		html_put(p, "), <code>");
		html_esc(p, gets(w, "change"));
		html_put(p, "</code>: %.3g s &rarr; %.3g s", base, changed);
		if (base > 0)
			html_put(p, " (%+.1f%%, %s)", (changed - base) / base * 100,
				 changed < base	  ? "faster"
				 : changed > base ? "slower"
						  : "the same");
		html_put(p, ", medians of %d runs each</div>", (int)getd(w, "runs"));
	}
}

static void findings(struct html *p, json_object *m)
{
	json_object *list = get(m, "findings");
	size_t i;

	html_put(p, "<h2>Findings</h2>\n");
	if (!report_len(list))
		html_put(p, "<p class=\"muted\">No findings.</p>\n");
	for (i = 0; i < report_len(list); i++) {
		json_object *f = json_object_array_get_idx(list, i);
		const char *sev = gets(f, "severity");

		html_put(p, "<div class=\"finding %s\">", sev[0] ? sev : "info");
		if (sev[0]) {
			html_put(p, "<span class=\"sev\">");
			html_esc(p, sev);
			html_put(p, "</span>");
		}
		html_put(p, "<span class=\"muted\">");
		html_esc(p, gets(f, "analysis"));
		html_put(p, "</span> ");
		html_esc(p, gets(f, "text"));
		if (get(f, "recommendation")) {
			html_put(p, "<div class=\"advice\">&rarr; ");
			html_esc(p, gets(f, "recommendation"));
			html_put(p, "</div>");
		}
		if (gets(f, "code")[0])
			whatif_lines(p, m, gets(f, "code"));
		html_put(p,
			 "<details><summary class=\"muted\">evidence (confidence "
			 "%.2f)</summary>",
			 getd(f, "confidence"));
		if (json_object_is_type(get(f, "evidence"), json_type_object))
			evidence_table(p, get(f, "evidence"), m, 0);
		html_put(p, "</details></div>\n");
	}
}

/* A link only for the schemes a kernel repository is served by, or a relative path. */
static int safe_url(const char *url)
{
	size_t scheme = strcspn(url, ":/?#");

	return url[0] && (url[scheme] != ':' || !strncmp(url, "https:", 6) ||
			  !strncmp(url, "http:", 5) || !strncmp(url, "file:", 5));
}

static void kernels(struct html *p, json_object *m)
{
	json_object *list = get(m, "kernels");
	size_t i;

	if (!report_len(list) && !report_len(get(m, "whatif")))
		return;
	html_put(p, "<h2>I/O kernel</h2>\n<p class=\"muted\">A small program that does this "
		    "job's I/O, with its compute and synchronization gaps.</p>\n");
	for (i = 0; i < report_len(list); i++) {
		json_object *k = json_object_array_get_idx(list, i);

		html_put(p, "%s<li>", i ? "" : "<ul>\n");
		if (safe_url(gets(k, "url"))) {
			html_put(p, "<a href=\"");
			html_esc(p, gets(k, "url"));
			html_put(p, "\">");
		}
		html_esc(p, gets(k, "name"));
		html_put(p, "@");
		html_esc(p, gets(k, "version"));
		html_put(p, safe_url(gets(k, "url")) ? "</a>" : " (");
		if (!safe_url(gets(k, "url"))) {
			html_esc(p, gets(k, "url"));
			html_put(p, ")");
		}
		html_put(p, "</li>\n%s", i + 1 == report_len(list) ? "</ul>\n" : "");
	}
	/* Every what-if replay, those that answer a finding also beside it. */
	whatif_lines(p, m, NULL);
}

static void cost(struct html *p, json_object *m)
{
	json_object *t = get(m, "time"), *ops = get(m, "operations"), *fs = get(m, "filesystems");
	const char *labels[9] = {"read",
				 "write",
				 "metadata",
				 "in POSIX calls",
				 "in STDIO calls",
				 "in MPI-IO calls",
				 "MPI synchronization",
				 "MPI start-up (launch, MPI_Init)",
				 "run time x ranks"};
	double v[9] = {getd(t, "read"),	    getd(t, "write"),	    getd(t, "metadata"),
		       getd(t, "posix"),    getd(t, "stdio"),	    getd(t, "mpiio"),
		       getd(t, "mpi_sync"), getd(t, "mpi_startup"), getd(t, "rank_seconds")};
	size_t i;
	char a[64], b[64];

	html_put(p, "<h2>I/O cost</h2>\n<p class=\"muted\">Seconds summed over ranks. Read, "
		    "write and metadata count every layer once: an MPI-IO call's time covers "
		    "the POSIX calls it made. Below them, each layer's own time.</p>\n");
	html_hbars(p, labels, v, 9, 0, "#4a78b5");
	html_put(p, "<table><tr><th>operation</th><th class=\"n\">count</th></tr>\n");
	for (i = 0; i < report_len(ops); i++) {
		json_object *o = json_object_array_get_idx(ops, i);

		html_put(p, "<tr><td>");
		html_esc(p, gets(o, "operation"));
		html_put(p, "</td><td class=\"n\">%.0f</td></tr>\n", getd(o, "count"));
	}
	html_put(p,
		 "</table>\n<table><tr><th>file system</th><th>type</th><th class=\"n\">read</th>"
		 "<th class=\"n\">written</th></tr>\n");
	for (i = 0; i < report_len(fs); i++) {
		json_object *o = json_object_array_get_idx(fs, i);

		html_put(p, "<tr><td class=\"name\">");
		html_esc(p, gets(o, "mount"));
		html_put(p, "</td><td>");
		html_esc(p, gets(o, "type"));
		html_put(p, "</td><td class=\"n\">%s</td><td class=\"n\">%s</td></tr>\n",
			 html_bytes(getd(o, "bytes_read"), a, sizeof(a)),
			 html_bytes(getd(o, "bytes_written"), b, sizeof(b)));
	}
	html_put(p, "</table>\n");
}

static void sizes(struct html *p, json_object *m)
{
	static const char *const bins[10] = {"0-100", "100-1K", "1K-10K",   "10K-100K", "100K-1M",
					     "1M-4M", "4M-10M", "10M-100M", "100M-1G",	"1G+"};
	/* Darshan's bins, whose K, M and G are powers of 1024: in IEC names. */
	static const char *const labels[10] = {
		"0-100 B", "100 B-1 KiB", "1-10 KiB",	"10-100 KiB",	 "100 KiB-1 MiB",
		"1-4 MiB", "4-10 MiB",	  "10-100 MiB", "100 MiB-1 GiB", "1 GiB+"};
	json_object *a = get(m, "access"), *common = get(a, "common_sizes");
	double rd[10], wr[10], max = 0;
	size_t i;
	char buf[64];

	for (i = 0; i < 10; i++) {
		rd[i] = getd(get(a, "read_sizes"), bins[i]);
		wr[i] = getd(get(a, "write_sizes"), bins[i]);
		max = rd[i] > max ? rd[i] : max;
		max = wr[i] > max ? wr[i] : max;
	}
	html_put(p, "<h2>Access sizes</h2>\n<p>Reads: ");
	html_esc(p, gets(a, "read_pattern"));
	html_put(p, "; writes: ");
	html_esc(p, gets(a, "write_pattern"));
	html_put(p, " <span class=\"muted\">(POSIX requests: red reads, blue writes)</span></p>\n");
	html_svg(p, 900, 214, NULL);
	html_put(p,
		 "<text x=\"0\" y=\"14\">%.0f</text><text x=\"0\" y=\"150\">0</text>"
		 "<text x=\"0\" y=\"30\" class=\"axis\">requests</text>"
		 "<line x1=\"58\" y1=\"8\" x2=\"58\" y2=\"150\" stroke=\"#667\"/>",
		 max);
	for (i = 0; i < 10; i++) {
		double hr = max > 0 ? rd[i] / max * 140 : 0, hw = max > 0 ? wr[i] / max * 140 : 0;

		html_put(p,
			 "<rect x=\"%zu\" y=\"%.1f\" width=\"30\" height=\"%.1f\" "
			 "fill=\"#c0504d\"><title>reads of %s: %.0f</title></rect>"
			 "<rect x=\"%zu\" y=\"%.1f\" width=\"30\" height=\"%.1f\" "
			 "fill=\"#4a78b5\"><title>writes of %s: %.0f</title></rect>",
			 i * 86 + 64, 150 - hr, hr, labels[i], rd[i], i * 86 + 96, 150 - hw, hw,
			 labels[i], wr[i]);
		html_put(p, "<text x=\"%zu\" y=\"%d\">%s</text>", i * 86 + 64,
			 164 + (int)(i % 2) * 12, labels[i]);
		if (rd[i] > 0 || wr[i] > 0)
			html_put(p, "<text x=\"%zu\" y=\"192\">%.3g/%.3g</text>", i * 86 + 64,
				 rd[i], wr[i]);
	}
	html_put(p, "<text x=\"470\" y=\"209\" text-anchor=\"middle\" class=\"axis\">request "
		    "size (reads/writes)</text></svg>\n<table>");
	html_put(p, "<tr><th>common size</th><th class=\"n\">count</th></tr>\n");
	for (i = 0; i < report_len(common); i++) {
		json_object *c = json_object_array_get_idx(common, i);

		html_put(p, "<tr><td>%s (%.0f B)</td><td class=\"n\">%.0f</td></tr>\n",
			 html_bytes(getd(c, "size"), buf, sizeof(buf)), getd(c, "size"),
			 getd(c, "count"));
	}
	html_put(p, "</table>\n");
}

/* White to dark blue, on a log scale of the share of the largest cell. */
static void heat_color(double v, double max, char *buf, size_t len)
{
	double x = v > 0 && max > 0 ? 1 + log10(v / max) / 6 : 0;

	x = x < 0.05 ? (v > 0 ? 0.05 : 0) : x;
	snprintf(buf, len, "rgb(%d,%d,%d)", (int)(255 - 225 * x), (int)(255 - 185 * x),
		 (int)(255 - 90 * x));
}

/* The ranks of heatmap row r ("rank 3", or "ranks 8-15" when rows group ranks). */
static void rank_range(struct html *p, size_t r, long per_row)
{
	if (per_row > 1)
		html_put(p, "ranks %ld-%ld", (long)r * per_row, (long)(r + 1) * per_row - 1);
	else
		html_put(p, "rank %zu", r);
}

/* Seconds as a tooltip or tick shows them: three significant digits. */
static const char *secs(double v, char *buf, size_t len)
{
	snprintf(buf, len, "%.3g s", v);
	return buf;
}

/*
 * The time axis under a plot whose columns start at x0, width wide in all
 * for seconds: ticks at every quarter, labelled in seconds, and its title.
 */
static void time_axis(struct html *p, double x0, double y, double width, double seconds)
{
	char buf[32];
	int k;

	html_put(p, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#667\"/>", x0,
		 y, x0 + width, y);
	for (k = 0; k <= 4; k++) {
		double x = x0 + width * k / 4;

		html_put(p,
			 "<line x1=\"%.1f\" y1=\"%.0f\" x2=\"%.1f\" y2=\"%.0f\" stroke=\"#667\"/>"
			 "<text x=\"%.1f\" y=\"%.0f\" text-anchor=\"middle\">%s</text>",
			 x, y, x, y + 4, x, y + 16, secs(seconds * k / 4, buf, sizeof(buf)));
	}
	html_put(p,
		 "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\" class=\"axis\">time since "
		 "the job's start (s)</text>",
		 x0 + width / 2, y + 32);
}

/* The heatmap's colour scale: a swatch per decade below the largest cell, in bytes. */
static void heat_legend(struct html *p, double max)
{
	char color[32], buf[64];
	int k;

	if (max <= 0)
		return;
	html_put(p, "<p class=\"muted\">Colour: bytes moved in a cell (a log scale)</p>\n");
	html_svg(p, 700, 34, "legend");
	for (k = 6; k >= 0; k--) {
		double v = max / pow(10, k);
		int i = 6 - k;

		heat_color(v, max, color, sizeof(color));
		html_put(
			p,
			"<rect x=\"%d\" y=\"0\" width=\"90\" height=\"14\" fill=\"%s\" "
			"stroke=\"#ccd\"><title>%s</title></rect><text x=\"%d\" y=\"30\">%s</text>",
			i * 96, color, html_bytes(v, buf, sizeof(buf)), i * 96, buf);
	}
	html_put(p, "</svg>\n");
}

static void timeplots(struct html *p, json_object *m)
{
	json_object *t = get(m, "timeline"), *cells = get(t, "heatmap"),
		    *marks = get(t, "checkpoints");
	json_object *rowsum = get(t, "row_bytes"), *rd = get(t, "read_bytes"),
		    *wr = get(t, "write_bytes");
	size_t nrows = report_len(cells), ncols = REPORT_TIME_COLUMNS, r, c;
	double max = 0, rmax = 0, cmax = 0, seconds = getd(t, "seconds");
	double cw = 6,
	       rh = nrows > 64	 ? 3
		    : nrows > 16 ? 6
				 : 14,
	       colsec = getd(t, "column_seconds");
	long per_row = json_object_get_int64(get(t, "ranks_per_row"));
	char color[32], buf[64];

	html_put(p,
		 "<h2>Time</h2>\n<p class=\"muted\">Bytes moved per rank%s over the run "
		 "(from the %s), with the sums per rank and per moment at the margins.</p>\n",
		 per_row > 1 ? " group" : "", gets(t, "source"));
	for (r = 0; r < nrows; r++) {
		json_object *row = json_object_array_get_idx(cells, r);

		for (c = 0; c < ncols; c++)
			max = fmax(max, json_object_get_double(json_object_array_get_idx(row, c)));
		rmax = fmax(rmax, json_object_get_double(json_object_array_get_idx(rowsum, r)));
	}
	for (c = 0; c < ncols; c++)
		cmax = fmax(cmax, json_object_get_double(json_object_array_get_idx(rd, c)) +
					  json_object_get_double(json_object_array_get_idx(wr, c)));
	html_svg(p, 60 + ncols * cw + 130, nrows * rh + 110, NULL);
	for (r = 0; r < nrows; r++) {
		json_object *row = json_object_array_get_idx(cells, r);
		double sum = json_object_get_double(json_object_array_get_idx(rowsum, r));

		for (c = 0; c < ncols; c++) {
			double v = json_object_get_double(json_object_array_get_idx(row, c));

			if (v <= 0)
				continue;
			heat_color(v, max, color, sizeof(color));
			html_put(p,
				 "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" "
				 "fill=\"%s\"><title>",
				 60 + c * cw, r * rh, cw, rh, color);
			rank_range(p, r, per_row);
			html_put(p, ", %.3g-%.3g s: %s</title></rect>", c * colsec,
				 (c + 1) * colsec, html_bytes(v, buf, sizeof(buf)));
		}
		if (sum > 0) {
			html_put(p,
				 "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.1f\" height=\"%.0f\" "
				 "fill=\"#889\"><title>",
				 64 + ncols * cw, r * rh, rmax > 0 ? sum / rmax * 120 : 0, rh);
			rank_range(p, r, per_row);
			html_put(p, ": %s in all</title></rect>",
				 html_bytes(sum, buf, sizeof(buf)));
		}
	}
	html_put(p,
		 "<text x=\"0\" y=\"10\">rank 0</text><text x=\"0\" y=\"%.0f\">rank %ld</text>"
		 "<text x=\"%.0f\" y=\"%.0f\" class=\"axis\">bytes per rank%s</text>",
		 nrows * rh, (long)(nrows * (size_t)per_row) - 1, 64 + ncols * cw, nrows * rh + 14,
		 per_row > 1 ? " group" : "");
	for (c = 0; c < ncols; c++) {
		double v = json_object_get_double(json_object_array_get_idx(rd, c)) +
			   json_object_get_double(json_object_array_get_idx(wr, c));
		double h = cmax > 0 ? v / cmax * 60 : 0;

		if (h > 0)
			html_put(p,
				 "<rect x=\"%.0f\" y=\"%.1f\" width=\"%.0f\" height=\"%.1f\" "
				 "fill=\"#889\"><title>%.3g-%.3g s: %s</title></rect>",
				 60 + c * cw, nrows * rh + 70 - h, cw - 1, h, c * colsec,
				 (c + 1) * colsec, html_bytes(v, buf, sizeof(buf)));
	}
	html_put(p, "<text x=\"0\" y=\"%.0f\">%s</text>", nrows * rh + 16,
		 html_bytes(cmax, buf, sizeof(buf)));
	time_axis(p, 60, nrows * rh + 72, ncols * cw, seconds);
	html_put(p, "</svg>\n");
	heat_legend(p, max);

	/* Bytes over time, reads and writes, checkpoints marked. */
	html_put(p, "<p class=\"muted\">Bytes over time (red reads, blue writes); shaded: "
		    "checkpoints, labelled with their bytes.</p>\n");
	html_svg(p, 60 + ncols * cw + 20, 220, NULL);
	for (r = 0; r < report_len(marks); r++) {
		json_object *k = json_object_array_get_idx(marks, r);
		double x0 = seconds > 0 ? getd(k, "start") / seconds * ncols * cw : 0;
		double x1 = seconds > 0 ? getd(k, "end") / seconds * ncols * cw : 0;

		html_put(p,
			 "<rect x=\"%.1f\" y=\"10\" width=\"%.1f\" height=\"160\" "
			 "fill=\"#fde9c8\"/>",
			 60 + x0, fmax(x1 - x0, 2));
		html_put(p, "<text x=\"%.1f\" y=\"20\">%s</text>", 60 + x0,
			 html_bytes(getd(k, "bytes"), buf, sizeof(buf)));
	}
	for (c = 0; c < ncols; c++) {
		double vr = json_object_get_double(json_object_array_get_idx(rd, c));
		double vw = json_object_get_double(json_object_array_get_idx(wr, c));
		double hr = cmax > 0 ? vr / cmax * 140 : 0, hw = cmax > 0 ? vw / cmax * 140 : 0;

		char rb[64], wb[64];

		if (hw <= 0 && hr <= 0)
			continue;
		html_bytes(vr, rb, sizeof(rb));
		html_bytes(vw, wb, sizeof(wb));
		if (hw > 0)
			html_put(p,
				 "<rect x=\"%.0f\" y=\"%.1f\" width=\"%.0f\" height=\"%.1f\" "
				 "fill=\"#4a78b5\"><title>%.3g-%.3g s: written %s, read "
				 "%s</title></rect>",
				 60 + c * cw, 170 - hw, cw - 1, hw, c * colsec, (c + 1) * colsec,
				 wb, rb);
		if (hr > 0)
			html_put(p,
				 "<rect x=\"%.0f\" y=\"%.1f\" width=\"%.0f\" height=\"%.1f\" "
				 "fill=\"#c0504d\"><title>%.3g-%.3g s: read %s, written "
				 "%s</title></rect>",
				 60 + c * cw, 170 - hw - hr, cw - 1, hr, c * colsec,
				 (c + 1) * colsec, rb, wb);
	}
	html_put(p,
		 "<text x=\"0\" y=\"170\">0 B</text><text x=\"0\" y=\"34\">%s</text>"
		 "<text x=\"0\" y=\"48\" class=\"axis\">per %s</text>",
		 html_bytes(cmax, buf, sizeof(buf)), secs(colsec, color, sizeof(color)));
	time_axis(p, 60, 172, ncols * cw, seconds);
	html_put(p, "</svg>\n");
}

/* The AMR picture: bytes per checkpoint, and the ranks' spread in each. */
static void checkpoints(struct html *p, json_object *m)
{
	json_object *amr = get(m, "amr"), *sz = get(amr, "sizes"), *cv = get(amr, "rank_cv");
	size_t n = report_len(sz), i;
	double max = 0;
	char buf[64];

	if (n < 2)
		return;
	for (i = 0; i < n; i++)
		max = fmax(max, json_object_get_double(json_object_array_get_idx(sz, i)));
	html_put(p, "<h3>Bytes per checkpoint</h3>\n<p>");
	html_esc(p, gets(amr, "classification"));
	html_put(p, ": sizes ");
	html_esc(p, gets(amr, "shape"));
	html_put(p, " <span class=\"muted\">(label: bytes; below: spread across ranks, "
		    "cv)</span></p>\n");
	html_svg(p, 760, 196, NULL);
	for (i = 0; i < n && i < 64; i++) {
		double v = json_object_get_double(json_object_array_get_idx(sz, i));
		double h = max > 0 ? v / max * 130 : 0, w = 700.0 / (double)(n < 64 ? n : 64);

		html_put(p,
			 "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			 "fill=\"#4a78b5\"><title>checkpoint %zu: %s, spread across ranks (cv) "
			 "%.2f</title></rect>",
			 20 + i * w, 150 - h, w * 0.8, h, i + 1, html_bytes(v, buf, sizeof(buf)),
			 json_object_get_double(json_object_array_get_idx(cv, i)));
		html_put(p, "<text x=\"%.1f\" y=\"%.1f\">%s</text>", 20 + i * w, 146 - h,
			 html_bytes(v, buf, sizeof(buf)));
		html_put(p, "<text x=\"%.1f\" y=\"170\">%.2f</text>", 20 + i * w,
			 json_object_get_double(json_object_array_get_idx(cv, i)));
	}
	html_put(p, "<text x=\"380\" y=\"190\" text-anchor=\"middle\" class=\"axis\">checkpoints, "
		    "in order (above: bytes; below: cv)</text></svg>\n");
}

/* A value as the plots label it: bytes in IEC units, or a count. */
static const char *amount(double v, int as_bytes, char *buf, size_t len)
{
	if (as_bytes)
		return html_bytes(v, buf, len);
	snprintf(buf, len, "%.0f", v);
	return buf;
}

/* Bars per rank: the largest value on the axis, each bar's rank and value as its tooltip. */
static void vbars(struct html *p, json_object *values, const char *color, int as_bytes)
{
	size_t n = report_len(values), i;
	double max = 0, w = n ? 900.0 / (double)n : 1;
	char buf[64];

	for (i = 0; i < n; i++)
		max = fmax(max, json_object_get_double(json_object_array_get_idx(values, i)));
	html_svg(p, 1000, 126, NULL);
	for (i = 0; i < n; i++) {
		double v = json_object_get_double(json_object_array_get_idx(values, i));
		double h = max > 0 ? v / max * 90 : 0;

		if (h > 0)
			html_put(p,
				 "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
				 "fill=\"%s\"><title>rank %zu: %s</title></rect>",
				 70 + i * w, 95 - h, w > 2 ? w - 1 : w, h, color, i,
				 amount(v, as_bytes, buf, sizeof(buf)));
	}
	html_put(p,
		 "<line x1=\"68\" y1=\"5\" x2=\"68\" y2=\"95\" stroke=\"#667\"/>"
		 "<text x=\"0\" y=\"12\">%s</text><text x=\"0\" y=\"95\">0</text>"
		 "<text x=\"70\" y=\"108\">rank 0</text>"
		 "<text x=\"970\" y=\"108\" text-anchor=\"end\">rank %zu</text>"
		 "<text x=\"520\" y=\"122\" text-anchor=\"middle\" class=\"axis\">rank</text>"
		 "</svg>\n",
		 amount(max, as_bytes, buf, sizeof(buf)), n ? n - 1 : 0);
}

/*
 * A drill-down's table: its cells (a file's ranks, or a rank's files),
 * key ("rank" or "file") first, a file linked to its row of the files table.
 */
static void drill_table(struct html *p, json_object *cells, const char *key, json_object *m)
{
	size_t i, n = report_len(cells);
	char a[64], b[64];

	html_put(p,
		 "<table class=\"evidence\"><tr><th>%s</th><th>reads</th><th>writes</th>"
		 "<th>read</th><th>written</th><th>sequential</th></tr>",
		 key);
	for (i = 0; i < n; i++) {
		json_object *c = json_object_array_get_idx(cells, i);

		html_put(p, "<tr><td>");
		if (!strcmp(key, "rank")) {
			html_put(p, "%d", json_object_get_int(get(c, "rank")));
		} else {
			file_link(p, gets(c, "file"), m);
		}
		html_put(p, "</td><td>%.0f</td><td>%.0f</td><td>%s</td><td>%s</td>",
			 getd(c, "reads"), getd(c, "writes"),
			 html_bytes(getd(c, "bytes_read"), a, sizeof(a)),
			 html_bytes(getd(c, "bytes_written"), b, sizeof(b)));
		if (get(c, "sequential"))
			html_put(p, "<td>%.0f%%</td></tr>", 100 * getd(c, "sequential"));
		else
			html_put(p, "<td>-</td></tr>");
	}
	html_put(p, "</table>");
}

/*
 * A file's name in the files table, opening (the first time it is listed)
 * to its ranks' calls on it: reads, writes, bytes and how sequential, from
 * the trace or the counters (file_ranks in the model).
 */
static void file_drill(struct html *p, const char *name, json_object *m, json_object **shown)
{
	json_object *f = get(get(m, "file_ranks"), name), *ranks = get(f, "ranks");
	size_t n = report_len(ranks);
	long long with = (long long)json_object_get_int64(get(f, "ranks_with_calls"));

	if (!f || (!n && !json_object_get_boolean(get(f, "combined"))) || get(*shown, name)) {
		html_esc(p, name);
		return;
	}
	json_object_object_add(*shown, name, json_object_new_boolean(1));
	html_put(p, "<details class=\"drill\"><summary>");
	html_esc(p, name);
	html_put(p, "</summary>");
	if (json_object_get_boolean(get(f, "combined"))) {
		html_put(p,
			 "<span class=\"muted\">Shared by all %d ranks: the log keeps their sum, "
			 "and the fastest and slowest rank; the calls of each rank need the "
			 "trace.</span>",
			 json_object_get_int(get(get(m, "job"), "ranks")));
	} else {
		drill_table(p, ranks, "rank", m);
		html_put(p, "<span class=\"muted\">From the ");
		html_esc(p, gets(f, "source"));
		if (with > (long long)n)
			html_put(p, "; the %zu ranks moving the most bytes of %lld", n, with);
		html_put(p, ".</span>");
	}
	html_put(p, "</details>");
}

/* The shared files a rank was the fastest or slowest of: what the counters keep of it. */
static void extremes_table(struct html *p, json_object *list, json_object *m)
{
	size_t i, n = report_len(list);
	char a[64];

	if (!n)
		return;
	html_put(p, "<table class=\"evidence\"><tr><th>shared file</th><th>this rank was "
		    "the</th><th>bytes</th><th>I/O time</th></tr>");
	for (i = 0; i < n; i++) {
		json_object *e = json_object_array_get_idx(list, i);

		html_put(p, "<tr><td>");
		file_link(p, gets(e, "file"), m);
		html_put(p, "</td><td>%s rank</td><td>%s</td><td>%.4g s</td></tr>",
			 strcmp(gets(e, "as"), "slowest") ? "fastest" : "slowest",
			 html_bytes(getd(e, "bytes"), a, sizeof(a)), getd(e, "io_time"));
	}
	html_put(p, "</table>");
}

/* The ranks the findings name, each opening to its files (rank_files in the model). */
static void rank_drills(struct html *p, json_object *m)
{
	json_object *ranks = get(m, "rank_files");
	char a[64];

	if (!json_object_is_type(ranks, json_type_object) || !json_object_object_length(ranks))
		return;
	html_put(p, "<p class=\"muted\">The ranks named in the findings, and their files:</p>\n");
	json_object_object_foreach(ranks, rank, r)
	{
		json_object *files = get(r, "files");
		size_t n = report_len(files);
		long long with = (long long)json_object_get_int64(get(r, "files_with_calls"));
		long long shared = (long long)json_object_get_int64(get(r, "shared_files"));

		html_put(p, "<details class=\"drill\" id=\"rank-");
		html_esc(p, rank);
		html_put(p, "\"><summary>rank ");
		html_esc(p, rank);
		html_put(p, ": %lld file%s%s, %s moved", with, with == 1 ? "" : "s",
			 shared ? " of its own" : "", html_bytes(getd(r, "bytes"), a, sizeof(a)));
		if (shared)
			html_put(p, "; %lld shared by all ranks", shared);
		html_put(p, "</summary>");
		if (n)
			drill_table(p, files, "file", m);
		extremes_table(p, get(r, "extremes"), m);
		html_put(p, "<span class=\"muted\">From the ");
		html_esc(p, gets(r, "source"));
		if (with > (long long)n)
			html_put(p, "; the %zu files moving the most bytes", n);
		if (shared)
			html_put(p,
				 ". Of the %lld file%s shared by all ranks the log keeps the sum "
				 "over ranks, and each rank's share only where it was the fastest "
				 "or the slowest",
				 shared, shared == 1 ? "" : "s");
		html_put(p, ".</span></details>\n");
	}
}

/* Bytes and calls per rank, then the ranks the findings name. */
static void per_rank(struct html *p, json_object *m)
{
	json_object *r = get(m, "ranks");

	html_put(p, "<h2>Ranks</h2>\n<p class=\"muted\">From the ");
	html_esc(p, gets(r, "source"));
	html_put(p, ". Bytes written:</p>\n");
	vbars(p, get(r, "bytes_written"), "#4a78b5", 1);
	html_put(p, "<p class=\"muted\">Bytes read:</p>\n");
	vbars(p, get(r, "bytes_read"), "#c0504d", 1);
	html_put(p, "<p class=\"muted\">Calls reaching the file system:</p>\n");
	vbars(p, get(r, "calls"), "#889", 0);
	rank_drills(p, m);
}

static void files(struct html *p, json_object *m)
{
	json_object *list = get(m, "files"), *drilled = json_object_new_object();
	size_t i;
	char a[64], b[64];

	html_put(p,
		 "<h2>Files</h2>\n<p class=\"muted\">%zu records; click a column to sort, a file "
		 "to see its ranks' calls on it. Rank -1: "
		 "a "
		 "file shared by all ranks, with its fastest and slowest rank.</p>\n"
		 "<table class=\"files\"><thead><tr><th>file</th><th>module</th><th "
		 "class=\"n\">rank</th><th class=\"n\">reads</th><th class=\"n\">writes</th><th "
		 "class=\"n\">read</th><th class=\"n\">written</th><th class=\"n\">I/O s</th><th "
		 "class=\"n\">fastest</th><th class=\"n\">slowest</th></tr></thead><tbody>\n",
		 report_len(list));
	for (i = 0; i < report_len(list); i++) {
		json_object *f = json_object_array_get_idx(list, i);

		html_put(p, "<tr id=\"file-%zu\"><td class=\"name\">", i);
		file_drill(p, gets(f, "file"), m, &drilled);
		html_put(p,
			 "</td><td>%s</td><td class=\"n\">%d</td><td class=\"n\">%lld</td><td "
			 "class=\"n\">%lld</td><td class=\"n\" data-v=\"%.0f\">%s</td><td "
			 "class=\"n\" "
			 "data-v=\"%.0f\">%s</td><td class=\"n\">%.4f</td>",
			 gets(f, "module"), json_object_get_int(get(f, "rank")),
			 (long long)json_object_get_int64(get(f, "reads")),
			 (long long)json_object_get_int64(get(f, "writes")), getd(f, "bytes_read"),
			 html_bytes(getd(f, "bytes_read"), a, sizeof(a)), getd(f, "bytes_written"),
			 html_bytes(getd(f, "bytes_written"), b, sizeof(b)), getd(f, "io_time"));
		if (get(f, "slowest_rank"))
			html_put(p,
				 "<td class=\"n\">%lld: %.4f s</td><td class=\"n\">%lld: %.4f "
				 "s</td>",
				 (long long)json_object_get_int64(get(f, "fastest_rank")),
				 getd(f, "fastest_time"),
				 (long long)json_object_get_int64(get(f, "slowest_rank")),
				 getd(f, "slowest_time"));
		else
			html_put(p, "<td></td><td></td>");
		html_put(p, "</tr>\n");
	}
	html_put(p, "</tbody></table>\n");
	json_object_put(drilled);
}

int report_html(json_object *m, FILE *out)
{
	struct html p = {out, 0};

	header(&p, m);
	findings(&p, m);
	report_history_html(&p, m);
	kernels(&p, m);
	cost(&p, m);
	sizes(&p, m);
	timeplots(&p, m);
	checkpoints(&p, m);
	per_rank(&p, m);
	files(&p, m);
	return html_end(&p, script);
}
