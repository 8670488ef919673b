from tysh.cli import main

raise SystemExit(main())
