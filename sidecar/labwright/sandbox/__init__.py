"""labwright.sandbox"""
