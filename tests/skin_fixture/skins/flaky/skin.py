from src.skin_system import ScoreboardSkin


class FlakySkin(ScoreboardSkin):
    def render_live(self, ctx, game):
        raise ValueError("flaky skin")
