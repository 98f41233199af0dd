"""A player's card read from the store in one go (issue 42): the graph of their rating, their record against the
key asking, their recent matches by the names held now; on both databases."""

from __future__ import annotations

from .conftest import finished_match, match_in_play, seats


async def _filed(store, code: str, seated, winner: int) -> None:
    match = match_in_play()
    await store.matches.create(code, match.options.to_dict(), seated, match.to_dict())
    await store.matches.finish(code, 1, finished_match(winner=winner).to_dict(), "won")


async def test_a_card_has_the_rating_graph_the_record_against_the_viewer_and_the_recent_matches(store):
    store.clock = lambda: 1000.0
    for fingerprint, name in (("SHA256:ann", "ann"), ("SHA256:bob", "bob"), ("SHA256:cyd", "cyd")):
        await store.players.see(fingerprint, name)
    await _filed(store, "ABCD", seats(), winner=0)  # ann beats bob
    await _filed(store, "EFGH", seats(), winner=1)  # bob beats ann
    await _filed(store, "JKLM", seats(), winner=0)  # ann beats bob again... rated as the pair's day allows
    await _filed(store, "NPQR", seats(first="SHA256:cyd", names=("cyd", "bob")), winner=0)  # bob loses to cyd
    await _filed(store, "STUV", seats(second=None, names=("ann", "zed")), winner=0)  # ann beats a guest: unrated
    await store.players.rename("SHA256:cyd", "cydney")

    card = await store.cards.card("SHA256:bob", viewer="SHA256:ann", recent=3)
    assert card.player is not None and (card.player.name, card.player.first_seen) == ("bob", 1000.0)
    rating = await store.ratings.of("SHA256:bob")
    assert card.standing is not None and card.standing.rating == rating
    rated = [each for each in await store.finished.of_player("SHA256:bob", 10) if each.rated]
    afters = [next(change.after.shown for change in each.rating_changes if change.fingerprint == "SHA256:bob")
              for each in reversed(rated)]
    first_before = next(change.before.shown for change in rated[-1].rating_changes
                        if change.fingerprint == "SHA256:bob")
    assert card.graph == (first_before, *afters) and card.graph[-1] == rating.shown
    assert card.against == (1, 2)  # bob against ann: won one, lost two
    assert [each.names for each in card.recent] == [("cydney", "bob"), ("ann", "bob"), ("ann", "bob")]

    assert (await store.cards.card("SHA256:ann", viewer="SHA256:ann")).against is None  # one's own card
    assert (await store.cards.card("SHA256:ann", viewer="SHA256:cyd")).against == (0, 0)
    assert (await store.cards.card("SHA256:bob", points=2)).graph == tuple(card.graph[-2:])


async def test_a_key_never_rated_has_a_card_without_a_rating_and_an_unknown_key_an_empty_one(store):
    await store.players.see("SHA256:ann", "ann")
    await _filed(store, "ABCD", seats(second=None, names=("ann", "zed")), winner=0)
    card = await store.cards.card("SHA256:ann")
    assert card.standing is None and card.graph == () and len(card.recent) == 1
    unknown = await store.cards.card("SHA256:nobody", viewer="SHA256:ann")
    assert (unknown.player, unknown.standing, unknown.graph, unknown.against, unknown.recent) == (
        None, None, (), (0, 0), ())
