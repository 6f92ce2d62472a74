"""Masking secrets in answers, and a mask sent back keeping the stored secret."""

from __future__ import annotations

import pytest

from shared.config.secrets import (
    SECRET_MASK,
    keep_secrets_secret,
    mask_secrets,
    restore_masked,
    split_secrets,
)
from shared.errors import ValidationError

SCHEMA = {"type": "object", "properties": {
    "key": {"type": "string", "x-secret": True},
    "auth": {"type": "object", "properties": {"user": {"type": "string"},
                                              "password": {"type": "string", "x-secret": True}}},
    "accounts": {"type": "array", "items": {"type": "object", "properties": {
        "name": {"type": "string"}, "token": {"type": "string", "x-secret": True}}}},
    "keys": {"type": "array", "items": {"type": "string", "x-secret": True}},
    "extra": {"type": "object", "additionalProperties": {"type": "string", "x-secret": True}},
}}


def test_every_set_secret_is_masked_and_nothing_else() -> None:
    section = {"key": "k", "auth": {"user": "bob", "password": "p"},
               "accounts": [{"name": "a", "token": "t"}, {"name": "b", "token": ""}],
               "keys": ["x", "y"], "extra": {"one": "1"}, "plain": "shown"}
    masked = mask_secrets(section, SCHEMA)
    assert masked == {"key": SECRET_MASK, "auth": {"user": "bob", "password": SECRET_MASK},
                      "accounts": [{"name": "a", "token": SECRET_MASK},
                                   {"name": "b", "token": ""}],
                      "keys": [SECRET_MASK, SECRET_MASK], "extra": {"one": SECRET_MASK},
                      "plain": "shown"}
    assert section["key"] == "k"  # a copy


def test_paths_stored_as_secrets_are_masked_without_a_schema() -> None:
    masked = mask_secrets({"a": {"b": "s", "c": "shown"}, "l": ["1"]}, None,
                          {"a": {"b": "s"}, "l": ["1"]})
    assert masked == {"a": {"b": SECRET_MASK, "c": "shown"}, "l": [SECRET_MASK]}


def test_the_mask_sent_back_restores_the_stored_value_by_path() -> None:
    stored = {"key": "k", "accounts": [{"name": "a", "token": "t"}]}
    sent = {"key": SECRET_MASK, "new": SECRET_MASK,
            "accounts": [{"name": "a2", "token": SECRET_MASK}, {"name": "c", "token": "u"}]}
    assert restore_masked(sent, stored) == {
        "key": "k", "accounts": [{"name": "a2", "token": "t"}, {"name": "c", "token": "u"}]}


def test_a_mask_never_becomes_the_stored_secret() -> None:
    public, secret = split_secrets({"key": SECRET_MASK, "auth": {"password": SECRET_MASK}},
                                   SCHEMA)
    assert secret == {} and public == {"auth": {}}
    main, moved = keep_secrets_secret({"p": {"key": SECRET_MASK}}, {"p": {"key": "k"}})
    assert main == {"p": {}} and moved == {"p": {"key": "k"}}


def test_an_array_whose_items_hold_a_secret_is_kept_with_the_secrets_whole() -> None:
    accounts = [{"name": "a", "token": "t"}]
    public, secret = split_secrets({"accounts": accounts, "auth": {"user": "u"}}, SCHEMA)
    assert secret == {"accounts": accounts}
    assert public == {"auth": {"user": "u"}}


def test_a_masked_secret_stays_with_its_own_row_when_rows_carry_their_origin() -> None:
    stored = {"accounts": [{"name": "alice", "token": "TOK-A"}, {"name": "bob", "token": "TOK-B"}]}
    # alice's row was removed in the form: bob's row, drawn from index 1, is now first.
    sent = {"accounts": [{"__row": 1, "name": "bob", "token": SECRET_MASK},
                         {"name": "carol", "token": "TOK-C"}]}
    assert restore_masked(sent, stored) == {
        "accounts": [{"name": "bob", "token": "TOK-B"}, {"name": "carol", "token": "TOK-C"}]}


def test_a_mask_in_a_row_of_unknown_origin_is_refused_not_guessed() -> None:
    stored = {"accounts": [{"name": "alice", "token": "TOK-A"}]}
    for origin in ({}, {"__row": 5}, {"__row": "0"}):
        sent = {"accounts": [{"__row": 0, "name": "alice", "token": SECRET_MASK},
                             {**origin, "name": "eve", "token": SECRET_MASK}]}
        with pytest.raises(ValidationError) as refused:
            restore_masked(sent, stored)
        assert refused.value.details == {"field": "accounts.1.token"}
        assert "accounts.1.token" in str(refused.value)


def test_rows_without_an_origin_still_match_masks_by_position() -> None:
    stored = {"accounts": [{"name": "alice", "token": "TOK-A"}, {"name": "bob", "token": "TOK-B"}]}
    sent = {"accounts": [{"name": "alice", "token": SECRET_MASK},
                         {"name": "bob", "token": SECRET_MASK}]}
    assert restore_masked(sent, stored) == stored


def test_a_plain_secret_keeps_its_own_row_when_it_carries_its_origin() -> None:
    stored = {"keys": ["KEY-A", "KEY-B"]}
    # KEY-A's row was removed in the form: KEY-B's row, drawn from index 1, is first.
    sent = {"keys": [{"__row": 1, "__value": SECRET_MASK}, "KEY-C"]}
    assert restore_masked(sent, stored) == {"keys": ["KEY-B", "KEY-C"]}
    # A value typed over the mask replaces it; the wrapper never reaches the file.
    sent = {"keys": [{"__row": 0, "__value": "KEY-Z"}, {"__row": 1, "__value": SECRET_MASK}]}
    assert restore_masked(sent, stored) == {"keys": ["KEY-Z", "KEY-B"]}


def test_a_plain_mask_of_unknown_origin_is_refused_not_guessed() -> None:
    stored = {"keys": ["KEY-A"]}
    for unknown in (SECRET_MASK, {"__row": 4, "__value": SECRET_MASK}):
        sent = {"keys": [{"__row": 0, "__value": SECRET_MASK}, unknown]}
        with pytest.raises(ValidationError) as refused:
            restore_masked(sent, stored)
        assert refused.value.details == {"field": "keys.1"}
