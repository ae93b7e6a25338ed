/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/wl_ycsb.h"

/* Operation proportions and request distribution of each core workload
 * (brianfrankcooper/YCSB workloads/workloada..workloadf). */
struct ycsb_spec {
	char letter;
	double read, update, insert, scan, rmw;
	bool latest;		/* requestdistribution=latest (else zipfian) */
};

static const struct ycsb_spec ycsb_specs[] = {
	{ 'a', 0.50, 0.50, 0, 0, 0, false },	/* update heavy */
	{ 'b', 0.95, 0.05, 0, 0, 0, false },	/* read mostly */
	{ 'c', 1.00, 0, 0, 0, 0, false },	/* read only */
	{ 'd', 0.95, 0, 0.05, 0, 0, true },	/* read latest */
	{ 'e', 0, 0, 0.05, 0.95, 0, false },	/* short ranges */
	{ 'f', 0.50, 0, 0, 0, 0.50, false },	/* read-modify-write */
};

/* workloade: maxscanlength=100, scanlengthdistribution=uniform (minscanlength 1) */
#define YCSB_MAX_SCAN_LENGTH 100
/* CoreWorkload: expectednewkeys = operationcount * insertproportion * 2.0
 * ("2 is fudge factor"): the zipfian key space, and here the file's room */
#define YCSB_INSERT_FUDGE 2.0

struct ycsb_mix {
	const struct ycsb_spec *spec;
	uint64_t loaded;	/* records of the load phase */
	uint64_t records;	/* records now (loaded + inserted) */
	uint64_t room;		/* records the data file has room for */
	struct zipf latest;	/* D: zipfian over the distance from the newest record */
	uint64_t reads, updates, inserts, scans, records_scanned, rmw;
	uint64_t reads_inserted;	/* reads of records inserted during the run */
	uint64_t inserts_refused;	/* inserts with the file full (done as reads) */
};

static const struct ycsb_spec *spec_of(const char *letter)
{
	for (size_t i = 0; letter && letter[0] && !letter[1] &&
			   i < sizeof(ycsb_specs) / sizeof(ycsb_specs[0]); i++)
		if (ycsb_specs[i].letter == letter[0])
			return &ycsb_specs[i];
	return NULL;
}

bool ycsb_workload_valid(const char *letter)
{
	return spec_of(letter) != NULL;
}

static uint64_t record_bytes(const struct scn_workload *cfg)
{
	return cfg->record_size ? cfg->record_size : 1024;
}

static uint64_t insert_room(const struct scn_workload *cfg, const struct ycsb_spec *s)
{
	return (uint64_t)((double)cfg->ops * s->insert * YCSB_INSERT_FUDGE);
}

uint64_t ycsb_file_pages(const struct scn_workload *cfg)
{
	const struct ycsb_spec *s = spec_of(cfg->ycsb_workload);
	uint64_t nr_pages = cfg->size / 4096;
	uint64_t page = cfg->page_size ? cfg->page_size : 4096;
	uint64_t ppl = (page + 4095) / 4096;
	uint64_t rpl = page / record_bytes(cfg) ? page / record_bytes(cfg) : 1;
	uint64_t records, leaves;

	if (!s || !s->insert)
		return nr_pages;
	records = cfg->size / record_bytes(cfg) + insert_room(cfg, s);
	leaves = (records + rpl - 1) / rpl;
	return leaves * ppl > nr_pages ? leaves * ppl : nr_pages;
}

/* The latest generator follows the record count: zeta(n) grows by one term
 * per insert, as YCSB's ZipfianGenerator does when asked for more items. */
static void latest_grow(struct zipf *z, uint64_t n)
{
	if (z->theta <= 0) {
		z->n = n;
		return;
	}
	for (uint64_t i = z->n + 1; i <= n; i++)
		z->zetan += 1.0 / pow((double)i, z->theta);
	z->n = n;
	z->eta = (1.0 - pow(2.0 / (double)n, 1.0 - z->theta)) /
		 (1.0 - (1.0 + z->half_pow_theta) / z->zetan);
}

int ycsb_mix_init(struct workload *w)
{
	const struct scn_workload *c = w->cfg;
	struct ycsb_mix *m = calloc(1, sizeof(*m));

	if (!m)
		return -ENOMEM;
	m->spec = spec_of(c->ycsb_workload);
	m->loaded = m->records = w->nr_keys;
	m->room = w->wt_nr_leaves * w->wt_records_per_leaf;
	if (m->room < m->records)
		m->room = m->records;
	/* CoreWorkload: the scrambled zipfian spans the loaded keys plus the
	 * expected inserts; a key not inserted yet is drawn again */
	if (m->spec->insert)
		zipf_init(&w->zipf, m->loaded + insert_room(c, m->spec), c->zipf_theta, true);
	if (m->spec->latest)
		zipf_init(&m->latest, m->loaded, c->zipf_theta, false);
	w->priv = m;
	return 0;
}

/* CoreWorkload.nextKeynum(): a key among the records present. */
static uint64_t next_key(struct workload *w, struct ycsb_mix *m, struct rng *r)
{
	uint64_t key;

	if (m->spec->latest)
		return m->records - 1 - zipf_next(&m->latest, r);
	do
		key = zipf_next(&w->zipf, r);
	while (key >= m->records);
	return key;
}

static int do_read(struct workload *w, struct ycsb_mix *m, struct actor *a)
{
	uint64_t key = next_key(w, m, &a->rng);

	m->reads++;
	m->reads_inserted += key >= m->loaded;
	return ycsb_store_access(w, a, key, false, false);
}

/* A range in key order: consecutive records share a leaf, so each cache
 * page of each leaf covering the range is read once. */
static int do_scan(struct workload *w, struct ycsb_mix *m, struct actor *a)
{
	uint64_t start = next_key(w, m, &a->rng);
	uint64_t len = 1 + rng_below(&a->rng, YCSB_MAX_SCAN_LENGTH);
	uint64_t end = start + len < m->records ? start + len : m->records;
	uint64_t rpl = w->wt_records_per_leaf, ppl = w->wt_pages_per_leaf;
	uint64_t last = UINT64_MAX;
	int ret = 0;

	m->scans++;
	m->records_scanned += end - start;
	for (uint64_t k = start; k < end; k++) {
		uint64_t where = (k / rpl) * ppl + (k % rpl) * ppl / rpl;

		if (where == last)
			continue;
		last = where;
		ret = ycsb_store_access(w, a, k, false, false);
		if (ret < 0)
			return ret;
	}
	return ret;
}

/* An insert appends the next key; the first record of a leaf beyond the
 * loaded data starts a new leaf in the cache (nothing on disk to read). */
static int do_insert(struct workload *w, struct ycsb_mix *m, struct actor *a, bool *write)
{
	uint64_t key = m->records;
	bool create = key % w->wt_records_per_leaf == 0;
	int ret;

	if (key >= m->room) {
		/* the file sized for YCSB's expected inserts is full */
		m->inserts_refused++;
		return do_read(w, m, a);
	}
	ret = ycsb_store_access(w, a, key, true, create);
	if (ret < 0)
		return ret;
	m->inserts++;
	m->records++;
	if (m->spec->latest)
		latest_grow(&m->latest, m->records);
	*write = true;
	return ret;
}

int ycsb_mix_op(struct workload *w, struct actor *a, bool *write)
{
	struct ycsb_mix *m = w->priv;
	const struct ycsb_spec *s = m->spec;
	double u = rng_double(&a->rng);
	uint64_t key;
	int ret;

	*write = false;
	if (u < s->read)
		return do_read(w, m, a);
	u -= s->read;
	if (u < s->update) {
		m->updates++;
		*write = true;
		return ycsb_store_access(w, a, next_key(w, m, &a->rng), true, false);
	}
	u -= s->update;
	if (u < s->insert)
		return do_insert(w, m, a, write);
	u -= s->insert;
	if (u < s->scan || !s->rmw)
		return s->scan ? do_scan(w, m, a) : do_read(w, m, a);
	/* read-modify-write: read the record, then update it */
	key = next_key(w, m, &a->rng);
	m->rmw++;
	ret = ycsb_store_access(w, a, key, false, false);
	if (ret < 0)
		return ret;
	*write = true;
	return ycsb_store_access(w, a, key, true, false);
}

void ycsb_mix_report(const struct workload *w, struct result_group *g)
{
	const struct ycsb_mix *m = w->priv;

	result_add_u64(g, "reads", m->reads);
	result_add_u64(g, "updates", m->updates);
	result_add_u64(g, "inserts", m->inserts);
	result_add_u64(g, "scans", m->scans);
	result_add_u64(g, "records_scanned", m->records_scanned);
	result_add_u64(g, "rmw", m->rmw);
	result_add_u64(g, "reads_inserted", m->reads_inserted);
	result_add_u64(g, "inserts_refused", m->inserts_refused);
	result_add_u64(g, "records", m->records);
}
