from django.urls import path

from .views import (
    games,
    help,
    history,
    home,
    households,
    install,
    meld,
    practice,
    practice_review,
    rules,
    scoreboard,
)

urlpatterns = [
    path("", home.home, name="home"),
    path("meld/", meld.meld_calculator, name="meld"),
    path("households/<int:household_id>/games/", history.history, name="history"),
    path("households/<int:household_id>/statistics/", history.statistics, name="statistics"),
    path("households/<int:household_id>/import/", history.game_import_view, name="game_import"),
    path("households/<int:household_id>/hands.csv", history.household_csv, name="household_csv"),
    path("households/new/", households.household_new, name="household_new"),
    path("households/restore/", history.household_restore_view, name="household_restore"),
    path("households/<int:household_id>/backup.json", history.household_backup_json, name="household_backup"),
    path("households/<int:household_id>/", households.household_detail, name="household"),
    path("households/<int:household_id>/players/", households.player_add, name="player_add"),
    path("households/<int:household_id>/invites/", households.invite_new, name="invite_new"),
    path(
        "households/<int:household_id>/invites/<int:invite_id>/revoke/",
        households.invite_revoke_view,
        name="invite_revoke",
    ),
    path(
        "households/<int:household_id>/members/<int:user_id>/remove/",
        households.member_remove_view,
        name="member_remove",
    ),
    path(
        "households/<int:household_id>/players/<int:player_id>/", households.player_edit, name="player_edit"
    ),
    path("invite/<str:token>/", households.invite_join, name="invite"),
    path("households/<int:household_id>/games/new/", games.game_new, name="game_new"),
    path("games/<int:game_id>/", games.game_detail, name="game"),
    path("games/<int:game_id>/hands/", games.hand_create, name="hand_create"),
    path("games/<int:game_id>/undo/", games.game_undo, name="game_undo"),
    path("games/<int:game_id>/redo/", games.game_redo, name="game_redo"),
    path("games/<int:game_id>/abandon/", games.game_abandon_view, name="game_abandon"),
    path("games/<int:game_id>/delete/", games.game_delete_view, name="game_delete"),
    path("games/<int:game_id>/hands/<int:hand_id>/edit/", games.hand_edit_view, name="hand_edit"),
    path("games/<int:game_id>/hands/<int:hand_id>/delete/", games.hand_delete_view, name="hand_delete"),
    path("games/<int:game_id>/export.json", history.game_export_json, name="game_export"),
    # Practice mode: games against the bots (views/practice.py)
    path("practice/", practice.practice_home, name="practice"),
    path("practice/history/", practice.practice_history_view, name="practice_history"),
    path("practice/<int:practice_id>/", practice.practice_game, name="practice_game"),
    path("practice/<int:practice_id>/act/", practice.practice_act_view, name="practice_act"),
    path("practice/<int:practice_id>/undo/", practice.practice_undo_view, name="practice_undo"),
    path("practice/<int:practice_id>/next/", practice.practice_next_view, name="practice_next"),
    path("practice/<int:practice_id>/rematch/", practice.practice_rematch_view, name="practice_rematch"),
    # Practice that teaches (views/practice_review.py): review, replay, step through, log
    path(
        "practice/<int:practice_id>/hands/<int:hand>/review/",
        practice_review.practice_review_view,
        name="practice_review",
    ),
    path(
        "practice/<int:practice_id>/hands/<int:hand>/step/",
        practice_review.practice_step_view,
        name="practice_step",
    ),
    path(
        "practice/<int:practice_id>/hands/<int:hand>/log/",
        practice_review.practice_log_view,
        name="practice_hand_log",
    ),
    path(
        "practice/<int:practice_id>/hands/<int:hand>/replay/",
        practice_review.practice_replay_view,
        name="practice_replay",
    ),
    path("games/<int:game_id>/share/", scoreboard.game_share, name="game_share"),
    path("games/<int:game_id>/live/", scoreboard.game_live, name="game_live"),
    path("s/<str:share_token>/", scoreboard.scoreboard, name="scoreboard"),
    # The rules pages and Learn to play (views/rules.py)
    path("rules/", rules.rules_index, name="rules_index"),
    path("rules/words/", rules.rules_words, name="rules_words"),
    path("rules/games/<int:game_id>/", rules.rules_game, name="rules_game"),
    path("rules/practice/<int:practice_id>/", rules.rules_practice, name="rules_practice"),
    path("rules/<str:variant_id>/", rules.rules_variant, name="rules"),
    path("rules/<str:variant_id>/learn/", rules.learn, name="learn"),
    path("manifest.webmanifest", install.manifest, name="manifest"),
    path("sw.js", install.service_worker, name="service_worker"),
    path("offline/", install.offline, name="offline"),
    # Help for players (views/help.py)
    path("help/", help.help_index, name="help_index"),
    path("help/<slug:slug>/", help.help_page, name="help"),
]
