"""gzip, gunzip, zcat and tar, through the session's filesystem."""
