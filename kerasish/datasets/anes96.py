"""The 1996 American National Election Study extract: 944 voters.

Source: the American National Election Studies (https://electionstudies.org),
1996 pre-election survey, in the extract statsmodels ships as
`statsmodels/datasets/anes96/anes96.csv` (statsmodels 0.15.0; the CSV's
SHA-256 is c124d855...420ba896). Licence: public domain (statsmodels
documents the extract as "This is public domain."). Stored here unchanged
as int32 columns in `data/anes96.npz`.

Columns (one entry per respondent):

* `popul`: population of the respondent's census place, in thousands.
* `TVnews`: times per week the respondent watches TV news (0-7).
* `selfLR`, `ClinLR`, `DoleLR`: the respondent's own political position,
  and their view of Bill Clinton's and Bob Dole's, from 1 (extremely
  liberal) to 7 (extremely conservative): see `IDEOLOGY`.
* `PID`: party identification, 0 (strong Democrat) to 6 (strong
  Republican): see `PARTY_ID`.
* `age`: age in years (19-91).
* `educ`: education, 1 (grades 1-8) to 7 (PhD): see `EDUCATION`.
* `income`: household income bracket, 1 (under $3,000) to 24 ($105,000 and
  over): see `INCOME`.
* `vote`: expected vote, 0 for Clinton, 1 for Dole (the label).
"""
import os

import numpy as np

_PATH = os.path.join(os.path.dirname(__file__), "data", "anes96.npz")

COLUMNS = ("popul", "TVnews", "selfLR", "ClinLR", "DoleLR", "PID", "age",
           "educ", "income", "vote")
FEATURES = COLUMNS[:-1]
VOTE = ("Clinton", "Dole")
PARTY_ID = ("Strong Democrat", "Weak Democrat", "Independent-Democrat",
            "Independent-Independent", "Independent-Republican",
            "Weak Republican", "Strong Republican")
EDUCATION = ("1-8 grades", "Some high school", "High school graduate",
             "Some college", "College degree", "Master's degree", "PhD")
IDEOLOGY = ("Extremely liberal", "Liberal", "Slightly liberal", "Moderate",
            "Slightly conservative", "Conservative",
            "Extremely conservative")
INCOME = ("None or less than $2,999", "$3,000-$4,999", "$5,000-$6,999",
          "$7,000-$8,999", "$9,000-$9,999", "$10,000-$10,999",
          "$11,000-$11,999", "$12,000-$12,999", "$13,000-$13,999",
          "$14,000-$14,999", "$15,000-$16,999", "$17,000-$19,999",
          "$20,000-$21,999", "$22,000-$24,999", "$25,000-$29,999",
          "$30,000-$34,999", "$35,000-$39,999", "$40,000-$44,999",
          "$45,000-$49,999", "$50,000-$59,999", "$60,000-$74,999",
          "$75,000-$89,999", "$90,000-$104,999", "$105,000 and over")


def load_columns():
    """Every column as an int32 array of 944 entries, by name.

    Example:

    >>> columns = load_columns()
    >>> len(columns["vote"]), int(columns["vote"].sum())
    (944, 393)
    """
    with np.load(_PATH) as data:
        return {name: data[name] for name in COLUMNS}


def load_data(test_split=0.2, seed=113):
    """Load the extract split for predicting the vote.

    Args:
        test_split: Fraction of respondents held out. Defaults to 0.2.
        seed: Seed of the shuffle before the split. Defaults to 113.

    Returns:
        `((x_train, y_train), (x_test, y_test))`: `x` dicts of int32 arrays
        keyed by the feature columns (`FEATURES`), `y` int32 votes (0
        Clinton, 1 Dole).

    Example:

    >>> (x_train, y_train), (x_test, y_test) = load_data()
    >>> len(y_train), len(y_test), sorted(x_train)[:3]
    (755, 189, ['ClinLR', 'DoleLR', 'PID'])
    """
    if not 0 <= test_split < 1:
        raise ValueError("test_split must be in [0, 1). Received: "
                         f"test_split={test_split}")
    columns = load_columns()
    order = np.random.RandomState(seed).permutation(len(columns["vote"]))
    cut = int(round(len(order) * (1 - test_split)))
    train, test = order[:cut], order[cut:]
    x_train = {name: columns[name][train] for name in FEATURES}
    x_test = {name: columns[name][test] for name in FEATURES}
    return ((x_train, columns["vote"][train]),
            (x_test, columns["vote"][test]))
