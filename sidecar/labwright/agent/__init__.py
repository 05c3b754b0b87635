"""labwright.agent"""
