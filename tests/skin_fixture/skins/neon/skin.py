from src.skin_system import ScoreboardSkin

GREEN = (0, 200, 0)


class NeonSkin(ScoreboardSkin):
    def _draw(self, ctx, game, label):
        ctx.draw.rectangle((0, 0, ctx.width - 1, 3), fill=GREEN)
        ctx.draw_text(f"{label} {game['away_score']}-{game['home_score']}", 1, 6)
        return True

    def render_live(self, ctx, game):
        return self._draw(ctx, game, "LIV")

    def render_recent(self, ctx, game):
        return self._draw(ctx, game, "FIN")

    def render_upcoming(self, ctx, game):
        return self._draw(ctx, game, "NXT")
