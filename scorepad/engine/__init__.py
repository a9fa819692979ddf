"""The rules of pinochle (RULES.md) as pure Python: no Django import anywhere below here."""
