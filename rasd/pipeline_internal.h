/* SPDX-License-Identifier: MIT */
/* Shared by the pipeline's files (pipeline.c, pipeline_commit.c); nothing else includes it. */
#ifndef RAS_PIPELINE_INTERNAL_H
#define RAS_PIPELINE_INTERNAL_H

#include "pipeline.h"

int64_t ras_pipeline_wall_now(void);
/* The fold hook's storm and size limits, from the configuration (read again after a reload). */
void ras_pipeline_set_limits(struct ras_pipeline *p);
/*
 * The database refused: roll back, forget what the abandoned transaction
 * counted, hold every record read since the last commit made until
 * ras_pipeline_retry stores it.
 */
void ras_pipeline_note_db_error(struct ras_pipeline *p);
/* A replayed tree's counts of items, committed with the batch. */
int ras_pipeline_save_replay_marks(struct ras_pipeline *p);
/* A full batch: committed behind (pipeline_commit.c), or not yet full: nothing. */
int ras_pipeline_commit_batch(struct ras_pipeline *p);
/*
 * The commit behind, if one is out, waited for: made (0; its records are let
 * go) or failed (-EIO; what it had taken as saved is taken back, and the
 * caller meets the failure: ras_pipeline_note_db_error).
 */
int ras_pipeline_behind_settle(struct ras_pipeline *p);

#endif
