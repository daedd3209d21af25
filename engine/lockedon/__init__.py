"""Down in Flames: Locked-On (jet air combat, 1950s-1990s): rules engine and component data."""
