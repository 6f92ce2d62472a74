"""Reading files anyone could replace: names no file can have are simply not found."""

from __future__ import annotations

import errno

import pytest

from shared.files.regular_file import NameTooLong, read_regular
from shared.ids import SEGMENT_MAX_BYTES, is_plain_segment


def test_a_name_longer_than_any_file_name_is_not_found(tmp_path):
    with pytest.raises(FileNotFoundError) as caught:  # what every caller already handles
        read_regular(tmp_path / ("a" * 300))
    assert isinstance(caught.value, NameTooLong)
    assert caught.value.errno == errno.ENAMETOOLONG


def test_a_plain_segment_is_at_most_a_file_name_long():
    assert is_plain_segment("a" * SEGMENT_MAX_BYTES)
    assert not is_plain_segment("a" * (SEGMENT_MAX_BYTES + 1))
    assert not is_plain_segment("é" * 128)  # 256 bytes once encoded
    assert not is_plain_segment("a" * 5000)
