//! The host link's booking (`timing.host.link_booking`, timing/link.rs): `gaps` books each
//! direction apart and in the earliest gap, so a write need not wait for the transfer of a
//! read whose data is ready later; where transfers are booked in time order anyway (a
//! write-only run) both bookings give the same report.

use overprov_sim::config::{LinkBooking, Precondition, SimConfig};
use overprov_sim::device::{Command, Device};
use overprov_sim::Simulator;

fn small_drive(booking: LinkBooking) -> SimConfig {
    let policy = SimConfig::default().ftl.policy;
    let mut c = crate::common::uniform(1 << 14, 0.15, 64, policy);
    c.timing.enabled = true;
    c.timing.host.link_booking = booking;
    c.timing.state_round_drive_writes = 0.25;
    c
}

#[test]
fn a_write_after_a_read_waiting_on_nand_completes_without_waiting_for_it() {
    // returns (the read's completion, the write's), both relative to the write's issue
    let read_then_write = |booking: LinkBooking, with_read: bool| {
        let mut c = small_drive(booking);
        c.precondition.kind = Precondition::None;
        let mut d = Device::new(c).unwrap();
        // 64 pages written at once: their programs queue on the dies for milliseconds,
        // the 64 MiB buffer taking their data at once
        for lpn in 0..64 {
            d.submit(Command::Write, lpn, 1, 0).unwrap();
        }
        let read = match with_read {
            true => d.submit(Command::Read, 63, 1, 1_000).unwrap(),
            false => 2_000,
        };
        let write = d.submit(Command::Write, 1_000, 1, 2_000).unwrap();
        (read - 2_000, write - 2_000)
    };
    let (read, write) = read_then_write(LinkBooking::InOrder, true);
    assert!(read > 1_000_000, "the read waits on programs: {read} ns");
    assert!(
        write > read,
        "in order, the write's transfer waits for the read's: {write} ns"
    );
    let (read_gaps, write_gaps) = read_then_write(LinkBooking::Gaps, true);
    assert_eq!(read_gaps, read, "the read itself is booked alike");
    // without the read, the write waits only for the earlier writes' transfers (the link's
    // 550 MB/s): booked in a gap, it completes as if the read had not been issued
    let (_, alone) = read_then_write(LinkBooking::InOrder, false);
    assert!(alone < read / 2, "{alone} ns alone");
    assert_eq!(write_gaps, alone);
}

#[test]
fn a_write_only_run_reports_alike_in_both_bookings() {
    let report = |booking: LinkBooking| {
        let r = Simulator::new(small_drive(booking)).unwrap().run().unwrap();
        (
            serde_json::to_string(&r.timed).unwrap(),
            serde_json::to_string(&r.measured).unwrap(),
        )
    };
    let (timed, measured) = report(LinkBooking::InOrder);
    assert!(timed.contains("steady"), "a timed report");
    assert_eq!(report(LinkBooking::Gaps), (timed, measured));
}
