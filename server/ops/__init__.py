"""Operations: Prometheus metrics and structured logs (imported from every layer; imports none)."""
