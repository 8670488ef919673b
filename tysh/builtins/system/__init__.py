"""Facts about the system and the session: date, which, uname, id and friends."""
