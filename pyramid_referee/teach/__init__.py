"""Teaching: drills and pictures of calls."""
