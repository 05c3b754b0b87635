"""labwright.verify"""
