"""labwright.store"""
