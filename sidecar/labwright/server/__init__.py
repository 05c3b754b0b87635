"""labwright.server"""
