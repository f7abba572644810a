//! Day numbers: real days since 1 January 1985 00:00, the time of day in
//! the fraction (1671.6039 is 30 July 1989, about 14:29).

/// Days from 1970-01-01 to 1985-01-01.
const EPOCH_1985: i64 = 5479;

/// A calendar date and time of day.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DateTime {
    pub year: i64,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
}

impl std::fmt::Display for DateTime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
            self.year, self.month, self.day, self.hour, self.minute, self.second
        )
    }
}

// Howard Hinnant's civil-from-days and days-from-civil.
fn civil(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

fn days(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (m as i64 + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date and time of a day number, to the nearest second; `None` for
/// numbers that are not finite or beyond the years 0–9999.
pub fn to_datetime(daynum: f64) -> Option<DateTime> {
    if !daynum.is_finite() || daynum.abs() > 3_000_000.0 {
        return None;
    }
    let secs = (daynum * 86_400.0).round() as i64;
    let (d, s) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (year, month, day) = civil(d + EPOCH_1985);
    if !(0..=9999).contains(&year) {
        return None;
    }
    Some(DateTime {
        year,
        month,
        day,
        hour: (s / 3600) as u32,
        minute: (s / 60 % 60) as u32,
        second: (s % 60) as u32,
    })
}

/// The day number of a date and time.
pub fn from_datetime(t: DateTime) -> f64 {
    let d = days(t.year, t.month, t.day) - EPOCH_1985;
    d as f64 + (t.hour * 3600 + t.minute * 60 + t.second) as f64 / 86_400.0
}

/// The day number of a Unix time (seconds since 1970).
pub fn from_unix(secs: i64) -> f64 {
    (secs - EPOCH_1985 * 86_400) as f64 / 86_400.0
}

/// The Unix time (seconds since 1970, to the nearest second) of a day
/// number; `None` as for [`to_datetime`].
pub fn to_unix(daynum: f64) -> Option<i64> {
    to_datetime(daynum)?;
    Some((daynum * 86_400.0).round() as i64 + EPOCH_1985 * 86_400)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seeds_example() {
        let t = to_datetime(1671.6039).unwrap();
        assert_eq!((t.year, t.month, t.day, t.hour, t.minute), (1989, 7, 30, 14, 29));
        assert_eq!(t.to_string(), "1989-07-30T14:29:37");
        assert_eq!(to_datetime(0.0).unwrap().to_string(), "1985-01-01T00:00:00");
        assert_eq!(to_datetime(59.0).unwrap().to_string(), "1985-03-01T00:00:00");
        // 1988 is a leap year: 1985–1988 are 1461 days.
        assert_eq!(to_datetime(1461.0).unwrap().to_string(), "1989-01-01T00:00:00");
        assert_eq!(
            to_datetime(1461.0 + 31.0 + 28.0).unwrap().to_string(),
            "1989-03-01T00:00:00"
        );
        assert_eq!(to_datetime(-1.0).unwrap().to_string(), "1984-12-31T00:00:00");
        assert_eq!(to_datetime(f64::NAN), None);
        assert_eq!(from_unix(473_385_600), 0.0); // 1985-01-01 in Unix time
        assert_eq!(to_unix(0.0), Some(473_385_600));
        assert_eq!(to_unix(from_unix(1_700_000_123)), Some(1_700_000_123));
        assert_eq!(to_unix(f64::INFINITY), None);
    }

    #[test]
    fn there_and_back() {
        for d in [0.0, 1.5, 1671.6039, 10_000.25, 14_593.0, 36_524.999] {
            let t = to_datetime(d).unwrap();
            assert!((from_datetime(t) - d).abs() < 1.0 / 86_400.0, "{d}");
        }
    }
}
