def parse_games(payload):
    games = []
    for event in (payload or {}).get("events", []):
        teams = {}
        for competitor in event.get("competitors", []):
            teams[competitor.get("homeAway")] = {
                "id": str(competitor.get("id")),
                "abbr": competitor.get("abbreviation", "?"),
                "score": competitor.get("score", 0),
            }
        if "home" in teams and "away" in teams:
            games.append({"home": teams["home"], "away": teams["away"]})
    return games
