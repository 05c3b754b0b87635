"""The catalogue of laws that lab courses use, loaded from `knowledge/models/`."""
