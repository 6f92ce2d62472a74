raise SystemExit("never imported")
