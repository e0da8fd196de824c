"""The hexapod (Silva, Tenreiro Machado, Lopes, Robotica 2005) on the validation ladder."""
