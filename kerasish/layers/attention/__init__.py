"""Attention layers: Attention, AdditiveAttention, MultiHeadAttention."""
