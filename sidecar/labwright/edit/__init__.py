"""labwright.edit"""
