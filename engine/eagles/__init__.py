"""Eagles in the Sky (WWI air combat, 1915-1918): rules engine and component data."""
