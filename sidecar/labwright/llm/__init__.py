"""labwright.llm"""
