raise SystemExit('b failed: schema mismatch')
