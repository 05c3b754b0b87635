"""labwright.ingest"""
