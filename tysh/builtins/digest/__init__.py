"""Checksums and encodings: md5sum and the sha family, b2sum, cksum, base64."""
