"""The relation reader: its training rows (`data`) and its training (`train`)."""
