"""The landing gear as Melia Boix, Goh and McWhinnie derive it (Secs. II-V)."""
