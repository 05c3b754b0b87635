"""labwright.testing"""
