#!/usr/bin/perl
# functions.pl SYMBOLS TRACE... : prints, once each, the functions that the traces ran, in the
# order they first ran: the first trace's, then the functions new in the second, and so on.
# SYMBOLS is `nm -nS --defined-only` of the traced program; a TRACE has "ADDRESS STEP" lines.
use strict;
use warnings;

my ($symbols, @traces) = @ARGV;
die "usage: functions.pl SYMBOLS TRACE...\n" unless defined $symbols && @traces;
my (@start, @size, @name);
open my $nm, '<', $symbols or die "$symbols: $!\n";
while (<$nm>) {
    my @field = split;
    next unless @field == 4 && $field[2] =~ /^[tTwW]$/;
    push @start, hex $field[0];
    push @size, hex $field[1];
    push @name, $field[3];
}
my %first;
for my $index (0 .. $#traces) {
    open my $trace, '<', $traces[$index] or die "$traces[$index]: $!\n";
    while (<$trace>) {
        my ($address, $step) = split;
        my $pc = hex $address;
        my ($low, $high) = (0, $#start);
        while ($low < $high) {
            my $middle = int(($low + $high + 1) / 2);
            if ($start[$middle] <= $pc) { $low = $middle } else { $high = $middle - 1 }
        }
        next unless $start[$low] <= $pc && $pc < $start[$low] + $size[$low];
        my $order = $index * 4294967296 + $step;
        $first{$low} = $order if !exists $first{$low} || $order < $first{$low};
    }
}
print "$name[$_]\n" for sort { $first{$a} <=> $first{$b} } keys %first;
