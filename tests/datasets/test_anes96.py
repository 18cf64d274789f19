"""The ANES 1996 extract: contents and the train/test split."""
import numpy as np
import pytest

from kerasish.datasets import anes96


def test_columns_are_the_statsmodels_extract():
    columns = anes96.load_columns()
    assert tuple(columns) == anes96.COLUMNS
    assert all(len(v) == 944 and v.dtype == np.int32
               for v in columns.values())
    # First row of statsmodels' anes96.csv: 0 7 7 1 6 6 36 3 1 1.
    assert [int(columns[c][0]) for c in anes96.COLUMNS] == \
        [0, 7, 7, 1, 6, 6, 36, 3, 1, 1]
    assert columns["PID"].max() == len(anes96.PARTY_ID) - 1
    assert columns["educ"].max() == len(anes96.EDUCATION)
    assert columns["income"].max() == len(anes96.INCOME)
    assert sorted(set(columns["vote"].tolist())) == [0, 1]


def test_split_is_seeded_and_complete():
    (x_train, y_train), (x_test, y_test) = anes96.load_data(test_split=0.25,
                                                            seed=1)
    assert len(y_train) == 708 and len(y_test) == 236
    assert set(x_train) == set(anes96.FEATURES)
    again = anes96.load_data(test_split=0.25, seed=1)
    np.testing.assert_array_equal(again[0][1], y_train)
    ages = np.sort(np.concatenate([x_train["age"], x_test["age"]]))
    np.testing.assert_array_equal(ages,
                                  np.sort(anes96.load_columns()["age"]))
    with pytest.raises(ValueError, match="test_split"):
        anes96.load_data(test_split=1.0)
