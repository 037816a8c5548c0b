"""Looking back: history, stats, the summary, exports, backup and restore, archive and delete."""
