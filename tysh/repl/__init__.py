"""The interactive shell: prompt_toolkit application, completion, highlighting, prompts and rendering."""
