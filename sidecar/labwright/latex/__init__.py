"""labwright.latex"""
