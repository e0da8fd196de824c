"""Any robot: a user's model (dynval.model's protocol) audited against its description in
every engine that loads it, and the run that writes its report."""
