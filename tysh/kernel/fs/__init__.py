"""The filesystem door every file access goes through: the interface, the host, a confined root, memory and an overlay."""
